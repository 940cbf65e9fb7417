/// Which private sound server a live test or benchmark runs against. Test names show it (`description`).
public enum SoundServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PulseAudio itself.
    case pulseAudio
    /// PipeWire with its PulseAudio server (pipewire-pulse) and WirePlumber, as Debian 12's
    /// desktop runs it.
    case pipeWire

    public var description: String {
        switch self {
        case .pulseAudio: "PulseAudio"
        case .pipeWire: "PipeWire"
        }
    }

    /// Whether this server and the PulseAudio command-line clients are installed (`make deps`).
    public var isAvailable: Bool {
        switch self {
        case .pulseAudio: PulseTestServer.isAvailable
        case .pipeWire: PipeWireTestServer.isAvailable
        }
    }

    /// Starts a private server of this kind and waits until it answers.
    public func start() throws -> any TestSoundServer {
        switch self {
        case .pulseAudio: try PulseTestServer()
        case .pipeWire: try PipeWireTestServer()
        }
    }
}
