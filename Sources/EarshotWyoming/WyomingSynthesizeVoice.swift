import EarshotProtocol

/// Which voice to speak in: a voice by name (with an optional speaker), or any voice for a language.
public struct WyomingSynthesizeVoice: Equatable, Sendable {
    public var name: String?
    public var language: String?
    public var speaker: String?

    public init(name: String? = nil, language: String? = nil, speaker: String? = nil) {
        self.name = name
        self.language = language
        self.speaker = speaker
    }

    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        self.init(
            name: try fields.optionalString("name"), language: try fields.optionalString("language"),
            speaker: try fields.optionalString("speaker")
        )
    }

    var json: JSONValue {
        var object = JSONObject()
        object.append("name", ifPresent: name.map(JSONValue.string))
        object.append("language", ifPresent: language.map(JSONValue.string))
        object.append("speaker", ifPresent: speaker.map(JSONValue.string))
        return .object(object)
    }
}
