/// A `speech` event: an utterance of the person began, may be over, went on, or ended.
public struct SpeechEvent: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        /// The utterance began at the event's time (its first speech frame); its audio, with
        /// prefix padding, starts at `audioStart`.
        case start(audioStart: Double)
        /// The utterance ended at the event's time (the end of its last speech frame).
        case end(reason: EndReason)
        /// The utterance may be over (`eager_end`): it has been silent since the event's time
        /// (the end of its last speech frame) long enough that a reply can be prepared, but
        /// nothing should play until its `end`. An `end` or a `resumed` follows.
        case eagerEnd
        /// The person spoke again at the event's time, after the `eager_end` of the event's
        /// turn and before its `end`: a reply prepared for it is dropped unheard, and the
        /// utterance goes on.
        case resumed
    }

    /// What decided the end of an utterance.
    public enum EndReason: String, Hashable, Sendable, CaseIterable {
        /// It sounded finished, so a shortened silence ended it.
        case finished
        /// Nothing was sure: the configured end silence passed.
        case silence
        /// It sounded unfinished, so a longer silence was waited for.
        case unfinished
        /// The stream ended.
        case streamEnd = "stream_end"
        /// Speech reported when a reply began fell silent before it interrupted the reply.
        case falseInterruption = "false_interruption"
        /// The talk key was released, ending a held turn.
        case released
        /// A held turn reached the longest utterance with no release.
        case holdLimit = "hold_limit"
    }

    /// The turn this utterance opens or ends.
    public var turn: Int
    public var phase: Phase
    /// Audio time of the event: the onset for `start`, the end of the last speech frame for `end`
    /// and `eager_end`, the speech coming back for `resumed`.
    public var time: Double

    public init(turn: Int, phase: Phase, time: Double) {
        self.turn = turn
        self.phase = phase
        self.time = time
    }
}

/// A `transcript` event: what the transcriber heard of a turn, partial while the person speaks,
/// then final once.
public struct TranscriptEvent: Hashable, Sendable {
    public var turn: Int
    public var text: String
    /// The final text of the turn; otherwise a partial hypothesis that may still change.
    public var isFinal: Bool
    /// Audio time of the event.
    public var time: Double

    public init(turn: Int, text: String, isFinal: Bool, time: Double) {
        self.turn = turn
        self.text = text
        self.isFinal = isFinal
        self.time = time
    }
}
