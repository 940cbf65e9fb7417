/// Whether the engine's audio passes through PulseAudio's echo canceller (`module-echo-cancel`).
public enum PulseEchoCancellation: Sendable, Hashable {
    /// Not asked for (`Configuration.echoCancellation` is false), or not connected.
    case off
    /// Loaded as server module `module`: the engine captures from its echo-cancelled source and
    /// plays on its sink, which sit on the real devices `source` and `sink`.
    case active(module: UInt32, source: String, sink: String)
    /// Asked for, but the server would not load it (the module is missing, as on a PipeWire
    /// without it, or refused its devices): the engine uses the plain devices.
    case unavailable(PulseError)
}

/// PulseAudio's `module-echo-cancel` as the engine loads it: on the devices the engine would
/// otherwise use, with a source and a sink of its own for the engine. When it is loaded, moved and
/// unloaded is `PulseEchoCancellerMachine`'s decision.
enum PulseEchoCanceller {
    /// The real devices the canceller sits on.
    struct Masters: Sendable, Hashable {
        var source: String
        var sink: String

        func device(_ role: PulseStreamRole) -> String {
            switch role {
            case .capture: source
            case .playback: sink
            }
        }
    }

    static let moduleName = "module-echo-cancel"
    static let sourceName = "earshot_echo_cancel_source"
    static let sinkName = "earshot_echo_cancel_sink"

    /// The canceller's device for `role`, which the engine's stream uses while it is active.
    static func device(_ role: PulseStreamRole) -> String {
        switch role {
        case .capture: sourceName
        case .playback: sinkName
        }
    }

    /// 16 kHz mono like the engine's streams: the canceller runs at the cheaper rate (about 7 %
    /// of a core) and capture needs no resampling. Analog gain control is off because the WebRTC
    /// AGC otherwise sets the real microphone's volume (it lowered the test microphone to 84 %
    /// on loading).
    static func arguments(method: String, masters: Masters) -> String {
        [
            "aec_method=\(method)",
            "source_master=\"\(masters.source)\"", "sink_master=\"\(masters.sink)\"",
            "source_name=\(sourceName)", "sink_name=\(sinkName)",
            "rate=16000", "channels=1",
            "aec_args='analog_gain_control=0'",
            "source_properties=\"device.description='Earshot echo-cancelled microphone'\"",
            "sink_properties=\"device.description='Earshot echo-cancelled speaker'\"",
        ].joined(separator: " ")
    }

    /// What a load on `masters` is called in its errors.
    static func loadOperation(on masters: Masters) -> String {
        "load \(moduleName) on \"\(masters.source)\" and \"\(masters.sink)\""
    }

    /// A canceller of ours still loaded, left by an engine that did not stop cleanly (it would
    /// take the names, and the new one would get "earshot_echo_cancel_source.2").
    static func isLeftover(_ module: PulseModule) -> Bool {
        module.name == moduleName && module.argument.split(separator: " ").contains("source_name=\(sourceName)")
    }
}
