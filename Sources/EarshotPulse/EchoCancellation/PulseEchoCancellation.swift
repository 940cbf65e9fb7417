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
