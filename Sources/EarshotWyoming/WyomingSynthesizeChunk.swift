public import EarshotProtocol

/// `synthesize-chunk`: more text to speak in a streamed synthesis.
public struct WyomingSynthesizeChunk: WyomingMessage {
    public static let eventType = "synthesize-chunk"

    public var text: String

    public init(text: String) {
        self.text = text
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        self.init(text: try WyomingFields(data, eventType: Self.eventType).string("text"))
    }

    public var data: JSONObject { ["text": .string(text)] }
}
