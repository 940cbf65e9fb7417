/// Where the engine is connected, as of the last event.
public struct PulseEngineStatus: Sendable, Hashable {
    public var isConnected: Bool
    /// The address of the server connected to; nil while disconnected.
    public var server: String?
    /// The source being captured; nil while disconnected.
    public var source: String?
    /// The sink cues and speech play on; nil while disconnected.
    public var sink: String?

    public init(isConnected: Bool = false, server: String? = nil, source: String? = nil, sink: String? = nil) {
        self.isConnected = isConnected
        self.server = server
        self.source = source
        self.sink = sink
    }
}
