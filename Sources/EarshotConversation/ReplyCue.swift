/// When a scripted reply is said.
public enum ReplyCue: Equatable, Sendable {
    /// In answer to the person's turn `turn`, `delayMilliseconds` after the pipeline asks for
    /// the reply (the final transcript, or without a transcriber the end of the utterance).
    case afterTurn(Int, delayMilliseconds: Int)
    /// Unprompted, at this audio time in seconds (on the 10 ms grid), or as soon after it as
    /// the voice UI is `listening` again.
    case at(seconds: Double)
}
