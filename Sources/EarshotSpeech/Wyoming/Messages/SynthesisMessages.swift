public import EarshotBase

/// `synthesize`: asks for `text` to be spoken; the audio comes back as audio-start, audio-chunks
/// and audio-stop.
public struct WyomingSynthesize: WyomingMessage {
    public static let eventType = "synthesize"

    public var text: String
    public var voice: WyomingSynthesizeVoice?

    public init(text: String, voice: WyomingSynthesizeVoice? = nil) {
        self.text = text
        self.voice = voice
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(text: try fields.string("text"), voice: try fields.optionalObject("voice").map(WyomingSynthesizeVoice.init))
    }

    public var data: JSONObject {
        var object: JSONObject = ["text": .string(text)]
        object.append("voice", ifPresent: voice?.json)
        return object
    }
}

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

/// `synthesize-start`: streamed text follows as `synthesize-chunk`s, ended by `synthesize-stop`.
public struct WyomingSynthesizeStart: WyomingMessage {
    public static let eventType = "synthesize-start"

    public var voice: WyomingSynthesizeVoice?

    public init(voice: WyomingSynthesizeVoice? = nil) {
        self.voice = voice
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(voice: try fields.optionalObject("voice").map(WyomingSynthesizeVoice.init))
    }

    public var data: JSONObject {
        var object = JSONObject()
        object.append("voice", ifPresent: voice?.json)
        return object
    }
}

/// `synthesize-chunk`: more text to speak in a streamed synthesis.
public struct WyomingSynthesizeChunk: WyomingTextMessage {
    public static let eventType = "synthesize-chunk"

    public var text: String

    public init(text: String) {
        self.text = text
    }
}

/// `synthesize-stop`: the streamed text is complete.
public struct WyomingSynthesizeStop: WyomingMessage {
    public static let eventType = "synthesize-stop"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}

/// `synthesize-stopped`: the server has sent all the audio of a streamed synthesis.
public struct WyomingSynthesizeStopped: WyomingMessage {
    public static let eventType = "synthesize-stopped"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}
