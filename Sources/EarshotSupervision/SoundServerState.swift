/// The daemon's connection to the sound server, as the supervisor words it.
public enum SoundServerState: Equatable, Sendable {
    /// Not connected, and no failure reported yet (starting, or between a loss and its report).
    case connecting
    /// Connected, capturing from `source` whenever the microphone is wanted.
    case connected(source: String)
    /// The server could not be reached or went away (`reason`); the next attempt is in `retryIn`.
    case lost(reason: String, retryIn: Duration)
}
