public import EarshotBase

/// `error`: the server could not do what was asked. (Named so that it is not taken for a Swift `Error`.)
public struct WyomingErrorMessage: WyomingMessage {
    public static let eventType = "error"

    public var text: String
    /// A short machine-readable kind, often the server's exception class, e.g. "VoiceNotFoundError".
    public var code: String?

    public init(text: String, code: String? = nil) {
        self.text = text
        self.code = code
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(text: try fields.optionalString("text") ?? "", code: try fields.optionalString("code"))
    }

    public var data: JSONObject {
        var object: JSONObject = ["text": .string(text)]
        object.append("code", ifPresent: code.map(JSONValue.string))
        return object
    }
}
