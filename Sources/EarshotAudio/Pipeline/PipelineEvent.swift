public import EarshotTurns

/// Something the pipeline tells front ends. Times are audio time in seconds since the stream began.
public enum PipelineEvent: Equatable, Sendable {
    /// What the voice UI shows changed: phase, turn, mute, or the error on display.
    case state(TurnSnapshot, time: Double)
    /// An utterance began at `time` (its first speech frame); its audio, with prefix padding,
    /// starts at `audioStart`. `turn` is the turn the utterance belongs to (0 when muted or idle).
    case speechStarted(turn: Int, audioStart: Double, time: Double)
    /// The utterance ended at `time` (the end of its last speech frame); `reason` says what
    /// decided it (how the turn sounded, the silence, the end of the stream).
    case speechEnded(turn: Int, reason: Endpointer.EndReason, time: Double)
    /// The utterance of `turn` may be over: its silence, from `time` (the end of its last speech
    /// frame), reached the eager-end silence. A `speechEnded` or a `speechResumed` follows.
    case speechEagerEnd(turn: Int, time: Double)
    /// The person spoke again at `time` after the eager end of `turn`: its answer is dropped
    /// unheard and the utterance goes on (as the next turn, where the machine prepares answers).
    case speechResumed(turn: Int, time: Double)
    /// A level reading that animates the voice blob.
    case level(LevelSource, LevelReading)
    /// What the transcriber heard of `turn`: a partial hypothesis while the person speaks (it
    /// may change), then the final text.
    case transcript(turn: Int, text: String, final: Bool, time: Double)
    /// The voice UI gave up on a peer, or the transcriber failed; `message` says it in words.
    /// `retryIn` is when Earshot tries again by itself, in seconds, if it will.
    case error(TurnError, message: String, retryIn: Double? = nil, time: Double)
    /// The wake phrase was heard in the audio ending at `time`: a conversation begins.
    case wake(phrase: String, time: Double)

    /// Audio time of the event.
    public var time: Double {
        switch self {
        case .state(_, let time), .speechStarted(_, _, let time), .speechEnded(_, _, let time),
            .speechEagerEnd(_, let time), .speechResumed(_, let time), .transcript(_, _, _, let time), .error(_, _, _, let time),
            .wake(_, let time):
            time
        case .level(_, let reading):
            reading.time
        }
    }
}

/// Whose sound a level reading measures.
public enum LevelSource: String, Sendable {
    case mic, speaker
}
