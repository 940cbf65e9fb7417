public import EarshotProtocol

/// `transcript-chunk`: more text of a streamed transcript, to be appended to what came before.
public struct WyomingTranscriptChunk: WyomingMessage {
    public static let eventType = "transcript-chunk"

    public var text: String

    public init(text: String) {
        self.text = text
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        self.init(text: try WyomingFields(data, eventType: Self.eventType).string("text"))
    }

    public var data: JSONObject { ["text": .string(text)] }
}
