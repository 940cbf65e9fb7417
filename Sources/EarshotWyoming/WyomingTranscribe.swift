public import EarshotProtocol

/// `transcribe`: asks for a transcript of the audio stream that follows.
public struct WyomingTranscribe: WyomingMessage {
    public static let eventType = "transcribe"

    /// A language code, for example "en"; nil lets the server choose.
    public var language: String?
    /// A model name from the server's info; nil for its default.
    public var name: String?

    public init(language: String? = nil, name: String? = nil) {
        self.language = language
        self.name = name
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(language: try fields.optionalString("language"), name: try fields.optionalString("name"))
    }

    public var data: JSONObject {
        var object = JSONObject()
        object.append("name", ifPresent: name.map(JSONValue.string))
        object.append("language", ifPresent: language.map(JSONValue.string))
        return object
    }
}
