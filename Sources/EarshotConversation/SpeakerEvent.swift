/// What the assistant's speaker did, for the event log: a reply starting, pausing while the
/// person may be interrupting, resuming, being stopped, or ending.
public struct SpeakerEvent: Equatable, Sendable {
    public var phase: Phase
    /// The turn machine's number for the reply.
    public var reply: Int
    /// The person's turn it answers; nil for an unprompted reply.
    public var turn: Int?
    /// The voice's id.
    public var voice: String
    public var text: String
    /// Length of the reply's audio, in seconds.
    public var duration: Double
    /// How much of it had played, in seconds.
    public var position: Double
    /// Audio time, in seconds.
    public var time: Double

    public init(
        phase: Phase, reply: Int, turn: Int?, voice: String, text: String, duration: Double, position: Double, time: Double
    ) {
        self.phase = phase
        self.reply = reply
        self.turn = turn
        self.voice = voice
        self.text = text
        self.duration = duration
        self.position = position
        self.time = time
    }
}
