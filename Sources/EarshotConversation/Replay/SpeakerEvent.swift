public import EarshotJSON

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

extension SpeakerEvent {
    public enum Phase: String, Equatable, Sendable {
        /// The reply's first audio goes to the speaker.
        case start
        /// The person may be interrupting: the speaker falls silent, keeping its place.
        case pause
        /// It was a false alarm: the reply goes on from where it paused.
        case resume
        /// The reply is abandoned (the person took the turn, or the turn was cancelled).
        case stop
        /// The reply has been said to its end.
        case end
    }
}

extension SpeakerEvent {
    /// Appends this event as one JSON line in the form of the pipeline's events (`event` first,
    /// `t` last, fixed number formats): a `start` carries the reply's `voice`, `duration` and
    /// `text`; the others how far it had got (`position`).
    public func write(to json: inout JSONLineWriter) {
        json.beginObject()
        json.key("event")
        json.string("speaker")
        json.key("phase")
        json.string(phase.rawValue)
        json.key("reply")
        json.integer(reply)
        if let turn {
            json.key("turn")
            json.integer(turn)
        }
        if phase == .start {
            json.key("voice")
            json.string(voice)
            json.key("duration")
            json.number(duration, decimals: 2)
            json.key("text")
            json.string(text)
        } else {
            json.key("position")
            json.number(position, decimals: 2)
        }
        json.key("t")
        json.number(time, decimals: 2)
        json.endObject()
        json.endLine()
    }
}
