public import EarshotProtocol

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
