/// A source (microphone) or sink (speaker) on the sound server.
public struct PulseDevice: Sendable, Hashable {
    /// The server's name for it, e.g. "alsa_input.pci-0000_00_1f.3.analog-stereo".
    public var name: String
    /// The name to show a person, e.g. "Built-in Audio Analog Stereo".
    public var description: String
    /// Whether it is the server's default source or sink.
    public var isDefault: Bool
    /// Whether it is the monitor of a sink (what the speaker plays, not a microphone).
    public var isMonitor: Bool

    public init(name: String, description: String, isDefault: Bool = false, isMonitor: Bool = false) {
        self.name = name
        self.description = description
        self.isDefault = isDefault
        self.isMonitor = isMonitor
    }
}
