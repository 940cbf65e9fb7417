/// The name of one file of a debug recording, and the only names the daemon's recordings have:
/// `earshot-20261121T203000123-turn000007.opus` (the turn's microphone audio) and
/// `earshot-20261121T203000123-turn000007.json` (its details), each with `.partial` appended
/// while it is being written. Retention and `forget` touch files named so and nothing else.
public struct RecordingName: Hashable, Comparable, Sendable, CustomStringConvertible {
    public enum Kind: String, CaseIterable, Sendable {
        /// Ogg Opus.
        case audio = "opus"
        /// JSON: turn, times, transcript, reply.
        case details = "json"
    }

    public var turn: RecordedTurn
    public var kind: Kind
    /// Being written (or left behind by a daemon that died while writing it).
    public var isPartial: Bool

    public init(turn: RecordedTurn, kind: Kind, isPartial: Bool = false) {
        self.turn = turn
        self.kind = kind
        self.isPartial = isPartial
    }

    static let prefix = "earshot-"
    static let turnMarker = "-turn"
    static let partialSuffix = ".partial"
    /// Turn numbers are written with at least this many digits.
    static let turnDigits = 6

    public var fileName: String {
        Self.prefix + turn.run + Self.turnMarker + UTCTimestamp.digits(turn.turn, Self.turnDigits) + "." + kind.rawValue
            + (isPartial ? Self.partialSuffix : "")
    }

    public var description: String { fileName }

    /// The same file once it is complete (or while it is being written).
    public var completed: RecordingName { RecordingName(turn: turn, kind: kind) }
    public var partial: RecordingName { RecordingName(turn: turn, kind: kind, isPartial: true) }

    /// Reads a file name; nil for any name the daemon does not give its recordings.
    public init?(fileName: String) {
        var rest = Substring(fileName)
        guard rest.hasPrefix(Self.prefix) else { return nil }
        rest = rest.dropFirst(Self.prefix.count)
        let run = rest.prefix(RecordedTurn.runStampLength)
        guard RecordedTurn.isRunStamp(run) else { return nil }
        rest = rest.dropFirst(run.count)
        guard rest.hasPrefix(Self.turnMarker) else { return nil }
        rest = rest.dropFirst(Self.turnMarker.count)
        let isPartial = rest.hasSuffix(Self.partialSuffix)
        if isPartial { rest = rest.dropLast(Self.partialSuffix.count) }
        guard let dot = rest.firstIndex(of: ".") else { return nil }
        let number = rest[..<dot]
        guard number.count >= Self.turnDigits, number.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let turn = Int(number), turn >= 1,
              let kind = Kind(rawValue: String(rest[rest.index(after: dot)...]))
        else { return nil }
        let name = RecordingName(turn: RecordedTurn(run: String(run), turn: turn), kind: kind, isPartial: isPartial)
        // One spelling per file: `turn0000007` is not the daemon's, even if it reads as turn 7.
        guard name.fileName == fileName else { return nil }
        self = name
    }

    /// By turn, then audio before details, complete before partial.
    public static func < (lhs: RecordingName, rhs: RecordingName) -> Bool {
        if lhs.turn != rhs.turn { return lhs.turn < rhs.turn }
        if lhs.kind != rhs.kind { return lhs.kind == .audio }
        return !lhs.isPartial && rhs.isPartial
    }
}

/// The recordings found in the recordings directory: only files named as the daemon names them.
public struct RecordingInventory: Equatable, Sendable {
    public var directory: String
    /// In order (``RecordingName``'s), oldest turn first.
    public var names: [RecordingName]

    public init(directory: String, names: [RecordingName]) {
        self.directory = directory
        self.names = names.sorted()
    }

    /// The distinct turns the files belong to, oldest first.
    public var turns: [RecordedTurn] { Array(Set(names.map(\.turn))).sorted() }

    /// "4 files (2 recorded turns)", "no recordings".
    public var summary: String {
        guard !names.isEmpty else { return "no recordings" }
        let turnCount = turns.count
        return "\(Self.count(names.count, "file")) (\(Self.count(turnCount, "recorded turn")))"
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// Which recorded turns stay on disk: the newest `keeping` of them, by run then turn number.
/// Every file of an older turn goes, its partial leftovers included.
public struct RecordingRetention: Equatable, Sendable {
    /// How many turns to keep; 0 keeps none.
    public var keeping: Int

    public init(keeping: Int) {
        self.keeping = max(0, keeping)
    }

    /// The turns among `names` that are kept, oldest first.
    public func keptTurns(_ names: [RecordingName]) -> [RecordedTurn] {
        Array(Set(names.map(\.turn)).sorted().suffix(keeping))
    }

    /// The files among `names` that belong to turns beyond the newest `keeping`, in order.
    public func surplus(_ names: [RecordingName]) -> [RecordingName] {
        let kept = Set(keptTurns(names))
        return names.filter { !kept.contains($0.turn) }.sorted()
    }
}
