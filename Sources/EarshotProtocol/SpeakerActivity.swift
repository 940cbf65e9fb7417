/// What the daemon's speaker is saying, for captions: a reply's first sentence starting, each
/// sentence after it, pausing while the person may be interrupting and resuming, and the reply
/// ending or being stopped.
public struct SpeakerActivity: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable {
        /// The reply's first audio went to the speaker; `text` is its first sentence.
        case start
        /// The next sentence of the reply is being said.
        case say
        /// The person may be interrupting: the speaker falls silent, keeping its place.
        case pause
        /// It was a false alarm: the reply goes on from where it paused.
        case resume
        /// The reply was said to its end.
        case end
        /// The reply was abandoned: `stop`, `cancel`, a barge-in, or leaving voice mode.
        case stop
    }

    public var phase: Phase
    /// The turn machine's number for the reply (0: a voice preview outside voice mode).
    public var reply: Int
    /// The voice's id, on `start`.
    public var voice: String?
    /// The sentence being said, on `start` and `say`.
    public var text: String?
    /// Audio time, in seconds.
    public var time: Double

    public init(phase: Phase, reply: Int, voice: String? = nil, text: String? = nil, time: Double) {
        self.phase = phase
        self.reply = reply
        self.voice = voice
        self.text = text
        self.time = time
    }
}
