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
