/// A TOML table: its keys in the order they are written, each with its place and its value.
///
/// Tables are equal when they hold the same keys with equal values, in any order and wherever
/// written: TOML does not order a table's keys, and a table's keys may be written in pieces.
public struct TOMLTable: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var key: String
        /// Where the key is written: the start of its whole dotted key (`a` of `a.b.c = 1`), or
        /// the `[` of the header that made it.
        public var position: TOMLPosition
        public var value: TOMLValue
    }

    public private(set) var entries: [Entry] = []
    private var indices: [String: Int] = [:]

    public init() {}

    /// The keys, in the order written.
    public var keys: [String] { entries.map(\.key) }

    public var isEmpty: Bool { entries.isEmpty }

    public var count: Int { entries.count }

    public subscript(key: String) -> TOMLValue? {
        entry(key)?.value
    }

    public func entry(_ key: String) -> Entry? {
        indices[key].map { entries[$0] }
    }

    /// Where `key` is written, if the table has it.
    public func position(of key: String) -> TOMLPosition? {
        entry(key)?.position
    }

    /// Adds `key`, which the table must not have yet (the parser has checked).
    mutating func append(_ key: String, at position: TOMLPosition, _ value: TOMLValue) {
        precondition(indices[key] == nil, "the key \(key) is already in the table")
        indices[key] = entries.count
        entries.append(Entry(key: key, position: position, value: value))
    }

    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
    }
}
