/// What the engine tells the daemon about the sound server, in the order it happened.
public enum PulseEngineEvent: Sendable, Hashable {
    /// Connected (at start, or again after the server came back) and capturing from `source`.
    /// `server` is the address connected to.
    case connected(server: String, source: String, sink: String)
    /// The server went away, or could not be reached; the next attempt comes after `retryIn`.
    /// Sent once per loss, not for every failed retry.
    case disconnected(PulseError, retryIn: Duration)
    /// Capture moved to another source: chosen, followed (the default changed), or fallen back to
    /// (the chosen one disappeared).
    case sourceChanged(String)
    /// Playback moved to another sink, for the same reasons.
    case sinkChanged(String)
    /// A source or sink appeared or disappeared.
    case devicesChanged
    /// Everything passed to `play` has been played.
    case playbackFinished
}
