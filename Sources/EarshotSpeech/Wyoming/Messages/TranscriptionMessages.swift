public import EarshotBase

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

/// `transcript-chunk`: more text of a streamed transcript, to be appended to what came before.
public struct WyomingTranscriptChunk: WyomingTextMessage {
    public static let eventType = "transcript-chunk"

    public var text: String

    public init(text: String) {
        self.text = text
    }
}

/// `transcript-stop`: a streamed transcript is complete.
public struct WyomingTranscriptStop: WyomingMessage {
    public static let eventType = "transcript-stop"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}
