/// What a ``TranscriptionQueue`` tells the pipeline about an utterance.
public enum TranscriptionReport: Equatable, Sendable {
    /// The running hypothesis changed while the person speaks.
    case partial(turn: Int, text: String)
    /// The final transcript (possibly late, after the backend came back).
    case final(turn: Int, text: String)
    /// The backend cannot take `turn` now; its audio is kept and tried again in `retryIn` seconds.
    case failed(turn: Int, message: String, retryIn: Double)
    /// `turn` will never be transcribed: the backlog was full, or the backend refused it.
    case dropped(turn: Int, message: String)
}
