public import EarshotBase

/// One kind of Wyoming event as a typed value, convertible to and from ``WyomingEvent``.
public protocol WyomingMessage: Equatable, Sendable {
    /// The event `type` this message is sent as, for example "transcribe".
    static var eventType: String { get }

    /// Reads the message from an event's data and payload.
    init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError)

    /// The event's data.
    var data: JSONObject { get }
    /// The event's payload; empty for all but audio.
    var payload: [UInt8] { get }
}

extension WyomingMessage {
    public var payload: [UInt8] { [] }

    /// Reads the message from `event`, which must be of type ``eventType``.
    public init(_ event: WyomingEvent) throws(WyomingMessageError) {
        guard event.type == Self.eventType else {
            throw WyomingMessageError(eventType: Self.eventType, reason: "the event is of type \(event.type)")
        }
        try self.init(data: event.data, payload: event.payload)
    }

    /// The message as an event.
    public var event: WyomingEvent {
        WyomingEvent(type: Self.eventType, data: data, payload: payload)
    }
}

/// A message whose only field is its text.
public protocol WyomingTextMessage: WyomingMessage {
    var text: String { get }

    init(text: String)
}

extension WyomingTextMessage {
    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        self.init(text: try WyomingFields(data, eventType: Self.eventType).string("text"))
    }

    public var data: JSONObject { ["text": .string(text)] }
}

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
