/// A `speaker` event: what the assistant's speaker does with a reply. The daemon sends them for
/// captions (`start` with the voice and first sentence, `say` for each sentence after it); a
/// scripted replay sends them with the reply's length and how far it had played.
public struct SpeakerEvent: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        /// The reply's first audio went to the speaker.
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
    /// The person's turn it answers; `nil` when unknown or for an unprompted reply.
    public var turn: Int?
    /// The voice's id.
    public var voice: String?
    /// Length of the reply's audio, in seconds, when known.
    public var duration: Double?
    /// The words being said.
    public var text: String?
    /// How much of the reply had played, in seconds, when known.
    public var position: Double?
    /// Audio time of the event.
    public var time: Double

    /// Each value given is sent; `nil` leaves its key out.
    public init(
        phase: Phase, reply: Int, turn: Int? = nil, voice: String? = nil, duration: Double? = nil, text: String? = nil,
        position: Double? = nil, time: Double
    ) {
        self.phase = phase
        self.reply = reply
        self.turn = turn
        self.voice = voice
        self.duration = duration
        self.text = text
        self.position = position
        self.time = time
    }
}
