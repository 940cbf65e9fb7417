/// Which sound server a live test runs against. Test names show it (`description`).
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

    /// The servers the live tests run against: every installed one, and under `CI=true` every
    /// one, so that a missing server fails its tests instead of skipping them.
    public static var testable: [SoundServerKind] {
        allCases.filter { $0.isAvailable || TestPeers.requireAll }
    }

    /// Starts a private server of this kind and waits until it answers.
    public func start() throws -> any TestSoundServer {
        switch self {
        case .pulseAudio: try PulseTestServer()
        case .pipeWire: try PipeWireTestServer()
        }
    }
}
