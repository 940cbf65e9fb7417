// The driver of `PulseRoutingMachine`: stream and device events go in as its inputs, and its
// actions are performed with libpulse. Which device a stream uses is decided there, not here.
extension PulseSession {
    func perform(_ actions: [PulseRoutingMachine.Action], answering selection: ((Result<String, PulseError>) -> Void)? = nil) {
        for action in actions {
            switch action {
            case .open(.capture, let device):
                openRecordStream(device: device)
            case .open(.playback, let device):
                openPlaybackStream(device: device)
            case .move(let role, let device):
                move(role, to: device)
            case .moveThenAnswer(let role, let device):
                move(role, to: device) { result in selection?(result.map { device }) }
            case .answerSelection(let result):
                selection?(result)
            case .streamsReady:
                perform(connection.streamsReady())
            case .loseConnection(let error):
                connectionLost(error)
            case .reportConnected(let source, let sink, let echoCancellation):
                reportConnected(source: source, sink: sink, echoCancellation: echoCancellation)
            case .updateStatus(let source, let sink, let echoCancellation):
                statusStore.withLock { status in
                    status.source = source
                    status.sink = sink
                    if let echoCancellation { status.echoCancellation = echoCancellation }
                }
            case .reportDeviceChanged(let role, let device):
                logger.info("\(role.deviceKind) changed", metadata: ["device": "\(device)"])
                emit(role == .capture ? .sourceChanged(device) : .sinkChanged(device))
            case .reportDevicesChanged:
                emit(.devicesChanged)
            case .noteFallback(let role, let failed, let fallback, let error):
                logger.warning("falling back to the default \(role.deviceKind)", metadata: [
                    "requested": "\(failed ?? "default")", "default": "\(fallback)", "error": "\(error)",
                ])
            case .noteNoPlayback(let error):
                logger.error("no playback stream", metadata: ["error": "\(error)"])
            case .echoCanceller(let action):
                perform(action)
            }
        }
    }

    /// A stream of `role` became ready on `device`.
    func streamReady(_ role: PulseStreamRole, on device: String?) {
        perform(routing.streamReady(role, on: device))
    }

    /// The server moved a stream of `role` (on request, or because its device went away).
    func streamMoved(_ role: PulseStreamRole) {
        let stream = role == .capture ? recordStream : playbackStream
        perform(routing.streamMoved(role, to: stream?.deviceName))
    }

    /// A stream of `role` could not be opened, or failed while the server stayed up.
    func streamFailed(_ role: PulseStreamRole, _ error: PulseError) {
        perform(routing.streamFailed(role, error))
    }

    /// Sets the requested device (nil: follow the default) and moves the stream to it; answers
    /// with the device now in use.
    func select(_ role: PulseStreamRole, _ name: String?, completion: @escaping (Result<String, PulseError>) -> Void) {
        perform(routing.select(role, name), answering: completion)
    }

    private func move(_ role: PulseStreamRole, to name: String, completion: ((Result<Void, PulseError>) -> Void)? = nil) {
        let operation = "move the \(role == .capture ? "capture" : "playback") stream to \"\(name)\""
        guard let context, let index = (role == .capture ? recordStream : playbackStream)?.serverIndex else {
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
}
