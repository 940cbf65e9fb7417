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
