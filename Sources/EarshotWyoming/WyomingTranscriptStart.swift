public import EarshotProtocol

/// `transcript-start`: a streamed transcript begins; `transcript-chunk`s follow.
public struct WyomingTranscriptStart: WyomingMessage {
    public static let eventType = "transcript-start"

    public var language: String?

    public init(language: String? = nil) {
        self.language = language
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        self.init(language: try WyomingFields(data, eventType: Self.eventType).optionalString("language"))
    }

    public var data: JSONObject {
        var object = JSONObject()
        object.append("language", ifPresent: language.map(JSONValue.string))
        return object
    }
}
