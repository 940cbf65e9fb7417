/// An event the daemon pushed to this subscriber: `state`, `speech`, `level`, `error` or `device`
/// (PROTOCOL.md).
public struct DaemonEvent: Sendable, Equatable {
    /// The line exactly as the daemon sent it (without its `\n`).
    public let line: String
    /// The whole object.
    public let body: JSON

    public init(line: String, body: JSON) {
        self.line = line
        self.body = body
    }

    /// The event's kind: its `"event"` key.
    public var kind: String { body["event"]?.string ?? "" }

    public subscript(key: String) -> JSON? { body[key] }
}
