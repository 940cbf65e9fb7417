public import EarshotBase

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One turn of the person's that a debug recording holds: which daemon run recorded it and its
/// turn number in that run (turn numbers start again at 1 with every run).
public struct RecordedTurn: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// When the recording daemon started, in UTC to the millisecond: `20261121T203000123`.
    public var run: String
    public var turn: Int

    public init(run: String, turn: Int) {
        self.run = run
        self.turn = turn
    }

    /// Older runs first, then lower turn numbers: the order the turns were spoken in.
    public static func < (lhs: RecordedTurn, rhs: RecordedTurn) -> Bool {
        (lhs.run, lhs.turn) < (rhs.run, rhs.turn)
    }

    public var description: String { "turn \(turn) of the run started \(run)" }

    /// Characters in a run stamp: `YYYYMMDD` `T` `HHMMSSmmm`.
    static let runStampLength = 18

    /// The run stamp for a daemon started at `wall` (Unix seconds).
    public static func runStamp(wall: Double) -> String {
        UTCTimestamp.compact(wall)
    }

    /// Whether `text` has the shape of a run stamp (18 characters: 8 digits, `T`, 9 digits).
    static func isRunStamp(_ text: Substring) -> Bool {
        let characters = Array(text.utf8)
        guard characters.count == runStampLength else { return false }
        return characters.enumerated().allSatisfy { index, byte in
            index == 8 ? byte == UInt8(ascii: "T") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}

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

/// Wall-clock times in UTC to the millisecond, as recordings name and describe them.
enum UTCTimestamp {
    /// `20261121T203000123`: sorts in time order, fits a file name.
    static func compact(_ wall: Double) -> String {
        let (parts, milliseconds) = split(wall)
        return digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2) + "T"
            + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + digits(milliseconds, 3)
    }

    /// `2026-11-21T20:30:00.123Z` (ISO 8601).
    static func iso8601(_ wall: Double) -> String {
        let (parts, milliseconds) = split(wall)
        return digits(parts.year, 4) + "-" + digits(parts.month, 2) + "-" + digits(parts.day, 2) + "T"
            + digits(parts.hour, 2) + ":" + digits(parts.minute, 2) + ":" + digits(parts.second, 2) + "." + digits(milliseconds, 3) + "Z"
    }

    /// `value` in decimal with leading zeros up to `width` digits.
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func split(_ wall: Double) -> (parts: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int), milliseconds: Int) {
        let whole = wall.rounded(.down)
        var seconds = time_t(whole)
        let milliseconds = min(999, max(0, Int(((wall - whole) * 1000).rounded(.down))))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (
            (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)),
            milliseconds
        )
    }
}
