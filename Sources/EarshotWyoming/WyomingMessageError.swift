/// Why an event's data does not make the message its type promises.
public struct WyomingMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The event type being read, for example "transcript".
    public var eventType: String
    /// What was wrong, for example "`text` is missing".
    public var reason: String

    public init(eventType: String, reason: String) {
        self.eventType = eventType
        self.reason = reason
    }

    public var description: String { "a \(eventType) event that cannot be read: \(reason)" }
}
