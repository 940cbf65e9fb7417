/// The sources and sinks of the sound server, as `PulseAudioEngine.devices()` found them.
public struct PulseDeviceList: Sendable, Hashable {
    /// Microphones first, then the monitors of sinks, each group in the server's order.
    public var sources: [PulseDevice]
    public var sinks: [PulseDevice]

    public init(sources: [PulseDevice], sinks: [PulseDevice]) {
        self.sources = sources
        self.sinks = sinks
    }

    public var defaultSource: PulseDevice? { sources.first(where: \.isDefault) }
    public var defaultSink: PulseDevice? { sinks.first(where: \.isDefault) }
}
