public import EarshotJSON
public import EarshotProtocol

/// An event the daemon pushed to this subscriber (PROTOCOL.md): the line as it came, and the
/// protocol's event read from it.
public struct DaemonEvent: Sendable, Equatable {
    /// The line exactly as the daemon sent it (without its `\n`).
    public let line: String
    /// The whole object.
    public let body: JSONValue
    /// The event; `nil` for a kind this client does not know yet, or one it cannot read.
    public let event: SocketEvent?
    /// When the daemon sent it, Unix seconds.
    public let wall: Double?

    public init(line: String, body: JSONValue) {
        self.line = line
        self.body = body
        let object = body.objectValue ?? [:]
        event = try? SocketEvent(object: object)
        wall = SocketEvent.wall(of: object)
    }

    /// The event's kind: its `"event"` key.
    public var kind: String { body["event"]?.stringValue ?? "" }

    /// The topic the event belongs to, which its kind names; `nil` for a kind this client does
    /// not know yet.
    public var topic: EventTopic? { EventTopic(rawValue: kind) }

    public subscript(key: String) -> JSONValue? { body[key] }
}
