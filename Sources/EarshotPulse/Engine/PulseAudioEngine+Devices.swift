// Device listing and choice. All of it needs the server: while it is away these throw an error
// whose `isServerUnavailable` is true.
extension PulseAudioEngine {
    /// The server's sources and sinks, with the defaults marked.
    public func devices() async throws(PulseError) -> PulseDeviceList {
        let info = try await query(nil as PulseServerInfo?, "read the server's defaults") { $0.requestServerInfo($1) }
        let sources = try await query([PulseDevice](), "list the sources") { $0.requestSources($1) }
        let sinks = try await query([PulseDevice](), "list the sinks") { $0.requestSinks($1) }
        func marked(_ devices: [PulseDevice], default name: String?) -> [PulseDevice] {
            devices.map { device in
                var device = device
                device.isDefault = device.name == name
                return device
            }
        }
        let markedSources = marked(sources, default: info?.defaultSource)
        return PulseDeviceList(
            sources: markedSources.filter { !$0.isMonitor } + markedSources.filter(\.isMonitor),
            sinks: marked(sinks, default: info?.defaultSink)
        )
    }

    /// Captures from the source `name` from now on, or from the server's default (followed as it
    /// changes) when nil. Returns the source now in use; an unknown name throws `.noEntity`.
    /// With echo cancellation the canceller moves onto the source (which is what is returned) and
    /// capture stays on the canceller's source.
    @discardableResult
    public func setSource(_ name: String?) async throws(PulseError) -> String {
        try await select(.capture, name)
    }

    /// Plays on the sink `name` from now on, or on the server's default when nil. Returns the
    /// sink now in use; an unknown name throws `.noEntity`. With echo cancellation, as for
    /// `setSource`.
    @discardableResult
    public func setSink(_ name: String?) async throws(PulseError) -> String {
        try await select(.playback, name)
    }

    private func select(_ role: PulseStreamRole, _ name: String?) async throws(PulseError) -> String {
        if let name {
            let operation = "use the \(role.deviceKind) \"\(name)\""
            _ = try await query(nil as PulseDevice?, operation) { context, query in
                switch role {
                case .capture: context.requestSource(named: name, query)
                case .playback: context.requestSink(named: name, query)
                }
            }
        }
        let result: Result<String, PulseError> = await withCheckedContinuation { continuation in
            withSession { $0.select(role, name) { continuation.resume(returning: $0) } }
        }
        return try result.get()
    }

    /// Runs one libpulse query on the current connection and waits for its answer.
    private func query<Value: Sendable>(
        _ initial: Value, _ operation: String, _ issue: @escaping (PulseContext, PulseQuery<Value>) -> Void
    ) async throws(PulseError) -> Value {
        let result: Result<Value, PulseError> = await withCheckedContinuation { continuation in
            withSession { session in
                let query = PulseQuery(initial, operation: operation) { continuation.resume(returning: $0) }
                guard let context = session.context, context.isReady else {
                    return query.fail(PulseError(.connectionRefused, while: operation))
                }
                issue(context, query)
            }
        }
        return try result.get()
    }
}
