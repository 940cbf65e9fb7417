/// Why an input was harmlessly ignored: it is stale or redundant, typically a peer racing a
/// state change. Nothing changed; log it at debug level at most.
public enum TurnIgnoreReason: Equatable, Hashable, Sendable {
    /// A transcript for a turn that is no longer waiting for one.
    case staleTranscript(turn: Int)
    /// A reply for a turn that was already answered, abandoned or timed out.
    case staleReply(turn: Int)
    /// A playback event for a reply that is no longer in flight.
    case stalePlayback(reply: Int)
    /// The user started speaking while the microphone is muted.
    case microphoneMuted
    /// An utterance started while one is already in progress.
    case utteranceInProgress
    /// An utterance ended while none is in progress (it was already ended, discarded or cancelled).
    case noUtteranceInProgress
}
