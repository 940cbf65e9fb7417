import CPulse

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

extension PulseDevice {
    init(_ info: pa_source_info) {
        self.init(
            name: info.name.map { String(cString: $0) } ?? "",
            description: info.description.map { String(cString: $0) } ?? "",
            isMonitor: info.monitor_of_sink != UInt32.max  // PA_INVALID_INDEX, a cast macro Swift does not import
        )
    }

    init(_ info: pa_sink_info) {
        self.init(
            name: info.name.map { String(cString: $0) } ?? "",
            description: info.description.map { String(cString: $0) } ?? ""
        )
    }
}
