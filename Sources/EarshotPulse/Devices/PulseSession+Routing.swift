import CPulse

// Which source and sink the streams use: the requested ones, the server's defaults when none was
// requested (followed as they change), and the defaults again when a requested one disappears.
extension PulseSession {
    func route(_ role: PulseStreamRole) -> PulseRoute {
        switch role {
        case .capture: capture
        case .playback: playback
        }
    }

    func setRoute(_ role: PulseStreamRole, _ update: (inout PulseRoute) -> Void) {
        switch role {
        case .capture: update(&capture)
        case .playback: update(&playback)
        }
    }

    func stream(_ role: PulseStreamRole) -> PulseStream? {
        switch role {
        case .capture: recordStream
        case .playback: playbackStream
        }
    }

    func defaultDevice(_ role: PulseStreamRole) -> String? {
        switch role {
        case .capture: serverInfo?.defaultSource
        case .playback: serverInfo?.defaultSink
        }
    }

    /// The device a stream of `role` should be on now: the echo canceller's while it is active.
    func target(_ role: PulseStreamRole) -> String? {
        echoDevice(role) ?? plainTarget(role)
    }

    /// First server info of a connection opens the streams; later ones (the defaults may have
    /// changed) move streams that follow the default.
    func serverInfoArrived(_ info: PulseServerInfo) {
        serverInfo = info
        reconcileEchoCanceller()
        // While the echo canceller loads, the streams wait for it: its completion places them.
        guard !echoCanceller.isLoading else { return }
        placeStreams(force: false)
    }

    /// Opens the streams not open yet on their targets and moves open ones that follow the
    /// default (all of them when `force`) to their targets.
    func placeStreams(force: Bool) {
        for role in [PulseStreamRole.capture, .playback] {
            guard let stream = stream(role) else {
                openStream(role, device: target(role))
                continue
            }
            let follows = force || route(role).requested == nil || echoDevice(role) != nil
            if follows, stream.isReady, let target = target(role), target != route(role).current {
                move(role, to: target)
            }
        }
    }

    func openStream(_ role: PulseStreamRole, device: String?) {
        switch role {
        case .capture: openRecordStream(device: device)
        case .playback: openPlaybackStream(device: device)
        }
    }

    /// A stream of `role` became ready on `device`.
    func streamReady(_ role: PulseStreamRole, on device: String?) {
        deviceInUse(role, is: device)
        reportConnectedWhenReady()
        // The target may have changed while the stream was being set up.
        if let target = target(role), target != device { move(role, to: target) }
    }

    /// The server moved a stream of `role` (on request, or because its device went away).
    func streamMoved(_ role: PulseStreamRole) {
        deviceInUse(role, is: stream(role)?.deviceName)
    }

    /// A stream of `role` failed while the server stayed up.
    func streamFailed(_ role: PulseStreamRole, _ error: PulseError, device: String?) {
        if let fallback = defaultDevice(role), fallback != device {
            logger.warning("falling back to the default \(role.deviceKind)", metadata: [
                "requested": "\(device ?? "default")", "default": "\(fallback)", "error": "\(error)",
            ])
            openStream(role, device: fallback)
        } else if role == .capture {
            connectionLost(error)
        } else {
            // Without a sink there is nothing to play on; the next server change tries again.
            logger.error("no playback stream", metadata: ["error": "\(error)"])
            reportConnectedWhenReady()
        }
    }

    /// A device of `role`'s kind appeared (`index` on the server): the requested one may be back.
    func returnToRequestedDevice(_ role: PulseStreamRole, index: UInt32) {
        switch echoCanceller {
        case .active: return echoDeviceAppeared(role, index: index)
        case .loading: return
        case .idle, .failed: break
        }
        guard let requested = route(role).requested, requested != route(role).current, stream(role)?.isReady == true else { return }
        move(role, to: requested)
    }

    /// Sets the requested device (nil: follow the default) and moves the stream to it; answers
    /// with the device now in use.
    func select(_ role: PulseStreamRole, _ name: String?, completion: @escaping (Result<String, PulseError>) -> Void) {
        let operation = "use the \(role.deviceKind) \(name.map { "\"\($0)\"" } ?? "the server's default")"
        setRoute(role) { $0.requested = name }
        guard context?.isReady == true, serverInfo != nil else {
            return completion(.failure(PulseError(.connectionRefused, while: operation)))
        }
        reconcileEchoCanceller()
        switch echoCanceller {
        case .active(_, let masters, _):
            // The stream stays on the canceller, which now sits on the device.
            return completion(.success(masters.device(role)))
        case .loading(let wanted):
            return completion(.success(wanted.device(role)))
        case .idle, .failed:
            break
        }
        guard let target = target(role) else {
            return completion(.failure(PulseError(.noEntity, while: operation)))
        }
        guard stream(role)?.isReady == true, route(role).current != target else {
            // Already there, or the stream is being opened and moves there once ready.
            return completion(.success(target))
        }
        move(role, to: target) { result in completion(result.map { target }) }
    }

    func move(_ role: PulseStreamRole, to name: String, completion: ((Result<Void, PulseError>) -> Void)? = nil) {
        let operation = "move the \(role == .capture ? "capture" : "playback") stream to \"\(name)\""
        guard let context, let index = stream(role)?.serverIndex else {
            completion?(.failure(PulseError(.badState, while: operation)))
            return
        }
        let query = PulseQuery((), operation: operation) { [logger] result in
            if case .failure(let error) = result { logger.debug("move failed", metadata: ["error": "\(error)"]) }
            completion?(result)
        }
        switch role {
        case .capture: context.moveSourceOutput(index, to: name, query)
        case .playback: context.moveSinkInput(index, to: name, query)
        }
    }

    /// Records the device a stream is on and tells the daemon when it changed.
    private func deviceInUse(_ role: PulseStreamRole, is name: String?) {
        guard let name, name != route(role).current else { return }
        setRoute(role) { $0.current = name }
        updateStatus()
        guard isConnected else { return }
        logger.info("\(role.deviceKind) changed", metadata: ["device": "\(name)"])
        emit(role == .capture ? .sourceChanged(name) : .sinkChanged(name))
    }
}

/// The two streams the engine keeps open on a connected server.
enum PulseStreamRole: Sendable, Hashable {
    /// The record stream on a source: the microphone.
    case capture
    /// The playback stream on a sink: the speaker.
    case playback

    /// "source" or "sink", for messages.
    var deviceKind: String {
        switch self {
        case .capture: "source"
        case .playback: "sink"
        }
    }
}

/// Which device one of the engine's streams should use and which it is on.
struct PulseRoute: Sendable, Hashable {
    /// The device asked for; nil follows the server's default.
    var requested: String?
    /// The device the stream is on, as last reported to the daemon; nil while there is no stream.
    var current: String?

    init(requested: String?) {
        self.requested = requested
    }

    /// The device to open the stream on, given the server's default.
    func target(default defaultName: String?) -> String? {
        requested ?? defaultName
    }
}
