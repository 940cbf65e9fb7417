public import EarshotJSON

/// What a recording's JSON file says about its turn, for a bug report: which turn, when, what
/// was heard and what was answered.
public struct RecordedTurnDetails: Equatable, Sendable {
    public var turn: RecordedTurn
    /// Wall-clock time of the audio's first sample, Unix seconds.
    public var startedAt: Double
    /// Audio time (seconds since the daemon started capturing) of the first and past the last sample.
    public var audioStart: Double
    public var audioEnd: Double
    /// The final transcript; nil until it arrives (or without a transcriber).
    public var transcript: String?
    /// The reply's text (its first part, when a responder speaks it in pieces); nil when none was given.
    public var reply: String?
    /// The utterance ran longer than a recording holds; the audio is its beginning.
    public var truncated: Bool

    public init(
        turn: RecordedTurn, startedAt: Double, audioStart: Double, audioEnd: Double,
        transcript: String? = nil, reply: String? = nil, truncated: Bool = false
    ) {
        self.turn = turn
        self.startedAt = startedAt
        self.audioStart = audioStart
        self.audioEnd = audioEnd
        self.transcript = transcript
        self.reply = reply
        self.truncated = truncated
    }

    /// The JSON file's content, one object.
    public var json: JSONValue {
        .object([
            "turn": .integer(turn.turn),
            "run": .string(turn.run),
            "audio": .string(RecordingName(turn: turn, kind: .audio).fileName),
            "started": .string(UTCTimestamp.iso8601(startedAt)),
            "audio_start": .number(audioStart, decimals: 2),
            "audio_end": .number(audioEnd, decimals: 2),
            "duration": .number(audioEnd - audioStart, decimals: 2),
            "transcript": .optional(transcript),
            "reply": .optional(reply),
            "truncated": .bool(truncated),
        ])
    }
}
