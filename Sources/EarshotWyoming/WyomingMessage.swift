public import EarshotProtocol

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
