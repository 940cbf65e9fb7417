// The driver of `PulseEchoCancellerMachine`: its actions performed with libpulse, and the
// server's answers fed back as its inputs, through `PulseRoutingMachine` (which places the streams
// when the canceller settles). Answers from an earlier connection are dropped.
extension PulseSession {
    func perform(_ action: PulseEchoCancellerMachine.Action) {
        switch action {
        case .listModules:
            listModules()
        case .unload(let module):
            unloadModule(module)
        case .load(let masters):
            loadEchoCanceller(on: masters)
        case .findDevices(let masters):
            findDevices(masters)
        case .nameNewDevice(let role, let index):
            nameNewDevice(role, at: index)
        case .awaitRelease, .updateStatus, .placeStreams:
            break  // `end` waits; PulseRoutingMachine performs the other two itself.
        case .releaseFinished:
            let waiter = echoReleaseWaiter
            echoReleaseWaiter = nil
            waiter?()
        case .note(let note):
            log(note)
        }
    }

    private func listModules() {
        guard let context else { return }
        context.requestModules(PulseQuery([], operation: "list the modules") { [unowned self] result in
            guard context === self.context else { return }
            perform(routing.echo { $0.modulesListed((try? result.get()) ?? []) })
        })
    }

    private func unloadModule(_ module: UInt32) {
        guard let context else { return perform(routing.echo { $0.unloadAnswered(module, unloaded: false) }) }
        let operation = "unload \(PulseEchoCanceller.moduleName) (module \(module))"
        context.unloadModule(module, PulseQuery((), operation: operation) { [unowned self] result in
            if case .failure(let error) = result { logger.warning("echo canceller not unloaded", metadata: ["error": "\(error)"]) }
            guard context === self.context else { return }
            perform(routing.echo { $0.unloadAnswered(module, unloaded: (try? result.get()) != nil) })
        })
    }

    private func loadEchoCanceller(on masters: PulseEchoCanceller.Masters) {
        guard let context else { return }
        let arguments = PulseEchoCanceller.arguments(method: configuration.echoCancellerMethod, masters: masters)
        let operation = PulseEchoCanceller.loadOperation(on: masters)
        let started = ContinuousClock.now
        context.loadModule(PulseEchoCanceller.moduleName, arguments: arguments, PulseQuery(nil, operation: operation) { [unowned self] result in
            guard context === self.context else { return }
            switch result {
            case .success(let module): perform(routing.echo { $0.loaded(module: module, took: ContinuousClock.now - started) })
            case .failure(let error): perform(routing.echo { $0.loadRefused(error) })
            }
        })
    }

    /// Answers whether the server has `masters`' source and sink.
    private func findDevices(_ masters: PulseEchoCanceller.Masters) {
        guard let context else { return }
        context.requestSource(named: masters.source, PulseQuery(nil, operation: "find the source \"\(masters.source)\"") { source in
            context.requestSink(named: masters.sink, PulseQuery(nil, operation: "find the sink \"\(masters.sink)\"") { [unowned self] sink in
                guard context === self.context else { return }
                perform(routing.echo { $0.devicesFound(source: (try? source.get()) != nil, sink: (try? sink.get()) != nil) })
            })
        })
    }

    private func nameNewDevice(_ role: PulseStreamRole, at index: UInt32) {
        guard let context else { return }
        let query = PulseQuery(nil as PulseDevice?, operation: "look up a new \(role.deviceKind)") { [unowned self] result in
            guard context === self.context, case .success(let device?) = result else { return }
            perform(routing.echo { $0.newDeviceNamed(role, device.name) })
        }
        switch role {
        case .capture: context.requestSource(at: index, query)
        case .playback: context.requestSink(at: index, query)
        }
    }

    private func log(_ note: PulseEchoCancellerMachine.Note) {
        switch note {
        case .removingLeftovers(let modules):
            logger.info("unloading echo cancellers left by an earlier run", metadata: ["modules": "\(modules)"])
        case .moving(let masters):
            logger.info("moving the echo canceller", metadata: ["source": "\(masters.source)", "sink": "\(masters.sink)"])
        case .loaded(let module, let masters, let took):
            logger.info("echo cancellation on", metadata: [
                "module": "\(module)", "source": "\(masters.source)", "sink": "\(masters.sink)", "took": "\(took)",
            ])
        case .standingInForMissingDevices(let masters, let error):
            logger.info("a chosen device is missing; putting the echo canceller on the default", metadata: [
                "source": "\(masters.source)", "sink": "\(masters.sink)", "error": "\(error)",
            ])
        case .unavailable(let error):
            logger.warning("echo cancellation unavailable; using the plain devices", metadata: [
                "error": "\(error)",
                "hint": "\(PulseEchoCanceller.moduleName) is missing on the server or refused the devices; the server's log says which",
            ])
        case .reloadingAfterUnload:
            logger.warning("the echo canceller was unloaded under the engine; loading it again")
        }
    }
}
