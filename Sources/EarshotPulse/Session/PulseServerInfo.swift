import CPulse

/// What `pa_context_get_server_info` says, copied out of libpulse's memory.
struct PulseServerInfo: Sendable, Hashable {
    var serverName: String
    var serverVersion: String
    var defaultSource: String?
    var defaultSink: String?

    /// The name and version in one: PipeWire's name already says which version it is, and its
    /// version field is the PulseAudio protocol level it imitates.
    var displayName: String {
        serverName.contains("(") ? serverName : "\(serverName) \(serverVersion)"
    }

    init(_ info: pa_server_info) {
        serverName = info.server_name.map { String(cString: $0) } ?? ""
        serverVersion = info.server_version.map { String(cString: $0) } ?? ""
        defaultSource = info.default_source_name.map { String(cString: $0) }
        defaultSink = info.default_sink_name.map { String(cString: $0) }
    }
}
