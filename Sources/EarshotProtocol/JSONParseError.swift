/// Why a text is not JSON, and where parsing stopped.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ':' after an object key".
    public var reason: String
    /// Byte offset into the text where parsing failed (0-based).
    public var offset: Int
    /// Character position where parsing failed (1-based), for people.
    public var column: Int

    public init(reason: String, offset: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.column = column
    }

    public var description: String {
        "\(reason) at column \(column)"
    }
}
