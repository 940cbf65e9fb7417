/// Where the engine is connected, as of the last event.
public struct PulseEngineStatus: Sendable, Hashable {
    public var isConnected: Bool
    /// The address of the server connected to, e.g. "unix:/run/user/1000/pulse/native"; nil
    /// while disconnected.
    public var server: String?
    /// What the server calls itself, e.g. "pulseaudio 16.1" or "PulseAudio (on PipeWire 1.0.5)";
    /// nil while disconnected.
    public var serverName: String?
    /// The source being captured; nil while disconnected.
    public var source: String?
    /// The sink cues and speech play on; nil while disconnected.
    public var sink: String?
    /// Whether `source` and `sink` are the echo canceller's, and on which real devices.
    public var echoCancellation: PulseEchoCancellation

    public init(
        isConnected: Bool = false, server: String? = nil, serverName: String? = nil, source: String? = nil,
        sink: String? = nil, echoCancellation: PulseEchoCancellation = .off
    ) {
        self.isConnected = isConnected
        self.server = server
        self.serverName = serverName
        self.source = source
        self.sink = sink
        self.echoCancellation = echoCancellation
    }
}
