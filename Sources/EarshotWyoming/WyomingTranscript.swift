public import EarshotProtocol

/// `transcript`: the final text of an utterance.
public struct WyomingTranscript: WyomingMessage {
    public static let eventType = "transcript"

    public var text: String
    public var language: String?

    public init(text: String, language: String? = nil) {
        self.text = text
        self.language = language
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(text: try fields.string("text"), language: try fields.optionalString("language"))
    }

    public var data: JSONObject {
        var object: JSONObject = ["text": .string(text)]
        object.append("language", ifPresent: language.map(JSONValue.string))
        return object
    }
}
