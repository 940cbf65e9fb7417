import CPulse

// The echo canceller: PulseAudio's module-echo-cancel, loaded on the devices the routes ask for
// (before the streams open on a new connection), reloaded when those change or the module goes
// away, unloaded on stop. The streams use its source and sink while it is active, and the plain
// devices when the server will not load it.
extension PulseSession {
    /// Reloads the canceller unprompted (it was unloaded under the engine, or a wanted device came
    /// back) at most this often per connection, so a server that keeps refusing cannot loop.
    static let echoReloadLimit = 5

    /// The device a stream of `role` would use without the canceller: requested or default.
    func plainTarget(_ role: PulseStreamRole) -> String? {
        route(role).target(default: defaultDevice(role))
    }

    /// The canceller's device for `role` while it is active.
    func echoDevice(_ role: PulseStreamRole) -> String? {
        echoCanceller.module == nil ? nil : PulseEchoCanceller.device(role)
    }

    /// Loads or reloads the canceller so that it sits on the devices the routes want. `retry` also
    /// reloads one that sits on the defaults because the wanted devices failed.
    func reconcileEchoCanceller(retry: Bool = false) {
        guard configuration.echoCancellation, isRunning, context?.isReady == true, serverInfo != nil else { return }
        guard let source = plainTarget(.capture), let sink = plainTarget(.playback) else {
            if case .failed(nil, _) = echoCanceller { return }
            let error = PulseError(.noEntity, while: "find a source and a sink for \(PulseEchoCanceller.moduleName)")
            return echoCancellerFailed(wanted: nil, error)
        }
        let wanted = PulseEchoCanceller.Masters(source: source, sink: sink)
        switch echoCanceller {
        case .idle:
            loadEchoCanceller(wanted, removingLeftovers: true)
        case .loading:
            break  // Its completion reconciles again.
        case .active(let module, let masters, let previous):
            guard wanted != previous || (retry && masters != wanted) else { return }
            logger.info("moving the echo canceller", metadata: ["source": "\(source)", "sink": "\(sink)"])
            echoCanceller = .loading(wanted: wanted)
            unloadThenLoadEchoCanceller(unloading: [module], wanted)
        case .failed(let previous, _):
            guard wanted != previous else { return }
            loadEchoCanceller(wanted, removingLeftovers: false)
        }
    }

    /// A device of `role` appeared (`index` on the server): if it is the wanted one and the
    /// canceller sits on the default instead, move the canceller onto it.
    func echoDeviceAppeared(_ role: PulseStreamRole, index: UInt32) {
        guard case .active(_, let masters, let wanted) = echoCanceller, masters.device(role) != wanted.device(role),
              let context, echoReloads < Self.echoReloadLimit else { return }
        // The canceller's own devices appear too, whenever it loads: only the wanted one counts.
        let query = PulseQuery(nil as PulseDevice?, operation: "look up a new \(role.deviceKind)") { [unowned self] result in
            guard context === self.context, case .success(let device?) = result, device.name == wanted.device(role) else { return }
            echoReloads += 1
            reconcileEchoCanceller(retry: true)
        }
        switch role {
        case .capture: context.requestSource(at: index, query)
        case .playback: context.requestSink(at: index, query)
        }
    }

    /// A module went away; if it was the canceller (unloaded by someone else, or by the server
    /// because its device disappeared), load it again.
    func moduleRemoved(_ index: UInt32) {
        echoModuleGone(index)
        guard case .active(let module, _, let wanted) = echoCanceller, module == index else { return }
        guard echoReloads < Self.echoReloadLimit else {
            let error = PulseError(.noEntity, while: "keep \(PulseEchoCanceller.moduleName) loaded")
            return echoCancellerFailed(wanted: wanted, error)
        }
        echoReloads += 1
        logger.warning("the echo canceller was unloaded under the engine; loading it again")
        echoCanceller = .idle
        reconcileEchoCanceller()
    }

    /// Unloads the canceller for good (the engine stops). True when `done` will be called once
    /// the server has answered; the connection must stay open until then, or the request is lost.
    func releaseEchoCanceller(then done: @escaping () -> Void) -> Bool {
        switch echoCanceller {
        case .active(let module, _, _):
            echoCanceller = .idle
            guard context?.isReady == true else { return false }
            unloadEchoCanceller(module) { _ in done() }
            return true
        case .loading:
            echoReleaseWaiter = done
            return true
        case .idle, .failed:
            return false
        }
    }

    // MARK: Loading

    private func loadEchoCanceller(_ wanted: PulseEchoCanceller.Masters, removingLeftovers: Bool) {
        guard let context else { return }
        echoCanceller = .loading(wanted: wanted)
        guard removingLeftovers else { return attemptEchoCanceller(on: wanted, wanted: wanted) }
        context.requestModules(PulseQuery([], operation: "list the modules") { [unowned self] result in
            guard isRunning else { return echoCancellerLoadedLate(nil) }
            guard context === self.context else { return }
            let leftovers = ((try? result.get()) ?? []).filter(PulseEchoCanceller.isLeftover).map(\.index)
            if !leftovers.isEmpty {
                logger.info("unloading echo cancellers left by an earlier run", metadata: ["modules": "\(leftovers)"])
            }
            unloadThenLoadEchoCanceller(unloading: leftovers, wanted)
        })
    }

    /// Loads once the modules are gone. The server acknowledges an unload before it happens (in a
    /// deferred step), and a load sent right after the answer sometimes found the names still
    /// taken: the module's removal event is the sure sign.
    private func unloadThenLoadEchoCanceller(unloading modules: [UInt32], _ wanted: PulseEchoCanceller.Masters) {
        guard !modules.isEmpty else { return attemptEchoCanceller(on: wanted, wanted: wanted) }
        echoUnloadsPending = Set(modules)
        echoAfterUnloads = { [unowned self] in attemptEchoCanceller(on: wanted, wanted: wanted) }
        for module in modules {
            // A module that cannot be unloaded (already gone) sends no removal event.
            unloadEchoCanceller(module) { [unowned self] unloaded in if !unloaded { echoModuleGone(module) } }
        }
    }

    /// One of the modules being unloaded before a load is gone; the last one lets the load go on.
    private func echoModuleGone(_ module: UInt32) {
        guard echoUnloadsPending.remove(module) != nil, echoUnloadsPending.isEmpty, let next = echoAfterUnloads else { return }
        echoAfterUnloads = nil
        guard isRunning else { return echoCancellerLoadedLate(nil) }
        next()
    }

    private func attemptEchoCanceller(on masters: PulseEchoCanceller.Masters, wanted: PulseEchoCanceller.Masters) {
        guard let context else { return }
        let name = PulseEchoCanceller.moduleName
        let arguments = PulseEchoCanceller.arguments(method: configuration.echoCancellerMethod, masters: masters)
        let operation = "load \(name) on \"\(masters.source)\" and \"\(masters.sink)\""
        let started = ContinuousClock.now
        context.loadModule(name, arguments: arguments, PulseQuery(nil, operation: operation) { [unowned self] result in
            guard isRunning else { return echoCancellerLoadedLate((try? result.get()) ?? nil) }
            guard context === self.context else { return }
            switch result {
            case .success(let module?):
                logger.info("echo cancellation on", metadata: [
                    "module": "\(module)", "source": "\(masters.source)", "sink": "\(masters.sink)",
                    "took": "\(ContinuousClock.now - started)",
                ])
                echoCanceller = .active(module: module, masters: masters, wanted: wanted)
                echoCancellerSettled()
            case .success(nil):
                echoCancellerFailed(wanted: wanted, PulseError(.internalError, while: operation))
            case .failure(let error):
                echoCancellerRefused(masters, wanted: wanted, error)
            }
        })
    }

    /// A chosen device that is missing is replaced by the default, as it would be without the
    /// canceller; one that is there but was refused is used without the canceller: the choice of
    /// device comes first.
    private func echoCancellerRefused(_ masters: PulseEchoCanceller.Masters, wanted: PulseEchoCanceller.Masters, _ error: PulseError) {
        let current = context
        findDevices(masters) { [unowned self] sourceExists, sinkExists in
            guard isRunning else { return echoCancellerLoadedLate(nil) }
            guard current === context else { return }
            let source = sourceExists ? masters.source : defaultDevice(.capture)
            let sink = sinkExists ? masters.sink : defaultDevice(.playback)
            guard let source, let sink, source != masters.source || sink != masters.sink else {
                return echoCancellerFailed(wanted: wanted, error)
            }
            let fallback = PulseEchoCanceller.Masters(source: source, sink: sink)
            logger.info("a chosen device is missing; putting the echo canceller on the default", metadata: [
                "source": "\(source)", "sink": "\(sink)", "error": "\(error)",
            ])
            attemptEchoCanceller(on: fallback, wanted: wanted)
        }
    }

    /// Answers whether the server has `masters`' source and sink.
    private func findDevices(_ masters: PulseEchoCanceller.Masters, _ completion: @escaping (Bool, Bool) -> Void) {
        guard let context else { return completion(false, false) }
        context.requestSource(named: masters.source, PulseQuery(nil, operation: "find the source \"\(masters.source)\"") { source in
            context.requestSink(named: masters.sink, PulseQuery(nil, operation: "find the sink \"\(masters.sink)\"") { sink in
                completion((try? source.get()) != nil, (try? sink.get()) != nil)
            })
        })
    }

    private func echoCancellerFailed(wanted: PulseEchoCanceller.Masters?, _ error: PulseError) {
        logger.warning("echo cancellation unavailable; using the plain devices", metadata: [
            "error": "\(error)",
            "hint": "\(PulseEchoCanceller.moduleName) is missing on the server or refused the devices; the server's log says which",
        ])
        echoCanceller = .failed(wanted: wanted, error)
        echoCancellerSettled()
    }

    /// The canceller is active or has failed: the streams go where it says.
    private func echoCancellerSettled() {
        updateStatus()
        // The routes may have changed while it was loading.
        reconcileEchoCanceller()
        guard !echoCanceller.isLoading else { return }
        placeStreams(force: true)
    }

    /// A load answered after the engine stopped: unload what it loaded, then let `stop` go on.
    private func echoCancellerLoadedLate(_ module: UInt32?) {
        let waiter = echoReleaseWaiter ?? {}
        echoReleaseWaiter = nil
        guard let module, context?.isReady == true else { return waiter() }
        unloadEchoCanceller(module) { _ in waiter() }
    }

    /// Unloads `module`; `done` hears whether the server agreed.
    private func unloadEchoCanceller(_ module: UInt32, then done: @escaping (Bool) -> Void) {
        guard let context else { return done(false) }
        let operation = "unload \(PulseEchoCanceller.moduleName) (module \(module))"
        context.unloadModule(module, PulseQuery((), operation: operation) { [logger] result in
            if case .failure(let error) = result { logger.warning("echo canceller not unloaded", metadata: ["error": "\(error)"]) }
            done((try? result.get()) != nil)
        })
    }
}
