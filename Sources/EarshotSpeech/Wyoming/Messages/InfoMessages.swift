public import EarshotBase

/// `describe`: asks the server for its ``WyomingInfo``.
public struct WyomingDescribe: WyomingMessage {
    public static let eventType = "describe"

    public init() {}

    public init(data: JSONObject, payload: [UInt8]) {}

    public var data: JSONObject { [:] }
}

/// `info`: what a server offers, the answer to `describe`. Only speech-to-text and text-to-speech
/// are read; the other services (wake, intent, handle, mic, snd) are ignored.
public struct WyomingInfo: WyomingMessage {
    public static let eventType = "info"

    public var asr: [WyomingASRProgram]
    public var tts: [WyomingTTSProgram]

    public init(asr: [WyomingASRProgram] = [], tts: [WyomingTTSProgram] = []) {
        self.asr = asr
        self.tts = tts
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        var asr: [WyomingASRProgram] = []
        for program in try fields.objects("asr") { asr.append(try WyomingASRProgram(program)) }
        var tts: [WyomingTTSProgram] = []
        for program in try fields.objects("tts") { tts.append(try WyomingTTSProgram(program)) }
        self.init(asr: asr, tts: tts)
    }

    public var data: JSONObject {
        ["asr": .array(asr.map(\.json)), "tts": .array(tts.map(\.json))]
    }

    /// Whether any installed speech-to-text program streams its transcripts.
    public var supportsTranscriptStreaming: Bool {
        asr.contains { $0.artifact.installed && $0.supportsTranscriptStreaming }
    }

    /// Whether any installed text-to-speech program takes streamed text.
    public var supportsSynthesizeStreaming: Bool {
        tts.contains { $0.artifact.installed && $0.supportsSynthesizeStreaming }
    }
}

/// A speech-to-text program a server runs, with its models.
public struct WyomingASRProgram: Equatable, Sendable {
    public var artifact: WyomingArtifact
    public var models: [WyomingASRModel]
    /// Whether it sends `transcript-start`, `transcript-chunk`s and `transcript-stop` as it decodes.
    public var supportsTranscriptStreaming: Bool

    public init(_ artifact: WyomingArtifact, models: [WyomingASRModel], supportsTranscriptStreaming: Bool = false) {
        self.artifact = artifact
        self.models = models
        self.supportsTranscriptStreaming = supportsTranscriptStreaming
    }

    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        var models: [WyomingASRModel] = []
        for model in try fields.objects("models") { models.append(try WyomingASRModel(model)) }
        self.init(
            try WyomingArtifact(fields), models: models,
            supportsTranscriptStreaming: try fields.bool("supports_transcript_streaming", default: false)
        )
    }

    var json: JSONValue {
        var object = artifact.members
        object.append("models", .array(models.map(\.json)))
        object.append("supports_transcript_streaming", .bool(supportsTranscriptStreaming))
        return .object(object)
    }
}

/// A speech-to-text model a server offers.
public struct WyomingASRModel: Equatable, Sendable {
    public var artifact: WyomingArtifact
    /// Language codes, for example "en" or "en-us".
    public var languages: [String]

    public init(_ artifact: WyomingArtifact, languages: [String]) {
        self.artifact = artifact
        self.languages = languages
    }

    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        self.init(try WyomingArtifact(fields), languages: try fields.optionalStrings("languages") ?? [])
    }

    var json: JSONValue {
        var object = artifact.members
        object.append("languages", .array(languages.map(JSONValue.string)))
        return .object(object)
    }
}

/// A text-to-speech program a server runs, with its voices.
public struct WyomingTTSProgram: Equatable, Sendable {
    public var artifact: WyomingArtifact
    public var voices: [WyomingTTSVoice]
    /// Whether it takes `synthesize-start`, `synthesize-chunk`s and `synthesize-stop`.
    public var supportsSynthesizeStreaming: Bool

    public init(_ artifact: WyomingArtifact, voices: [WyomingTTSVoice], supportsSynthesizeStreaming: Bool = false) {
        self.artifact = artifact
        self.voices = voices
        self.supportsSynthesizeStreaming = supportsSynthesizeStreaming
    }

    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        var voices: [WyomingTTSVoice] = []
        for voice in try fields.objects("voices") { voices.append(try WyomingTTSVoice(voice)) }
        self.init(
            try WyomingArtifact(fields), voices: voices,
            supportsSynthesizeStreaming: try fields.bool("supports_synthesize_streaming", default: false)
        )
    }

    var json: JSONValue {
        var object = artifact.members
        object.append("voices", .array(voices.map(\.json)))
        object.append("supports_synthesize_streaming", .bool(supportsSynthesizeStreaming))
        return .object(object)
    }
}

/// A text-to-speech voice a server offers.
public struct WyomingTTSVoice: Equatable, Sendable {
    public var artifact: WyomingArtifact
    public var languages: [String]
    /// The speakers of a multi-speaker voice, nil for one speaker.
    public var speakers: [String]?

    public init(_ artifact: WyomingArtifact, languages: [String], speakers: [String]? = nil) {
        self.artifact = artifact
        self.languages = languages
        self.speakers = speakers
    }

    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        var speakers: [String]?
        if fields.object["speakers"] != nil, fields.object["speakers"] != .null {
            speakers = []
            for speaker in try fields.objects("speakers") { speakers?.append(try speaker.string("name")) }
        }
        self.init(try WyomingArtifact(fields), languages: try fields.optionalStrings("languages") ?? [], speakers: speakers)
    }

    var json: JSONValue {
        var object = artifact.members
        object.append("languages", .array(languages.map(JSONValue.string)))
        object.append("speakers", speakers.map { .array($0.map { ["name": .string($0)] }) } ?? .null)
        return .object(object)
    }
}

/// What every program, model and voice in ``WyomingInfo`` says about itself.
public struct WyomingArtifact: Equatable, Sendable {
    public var name: String
    public var description: String?
    public var attribution: WyomingAttribution
    public var installed: Bool
    public var version: String?

    public init(
        name: String, description: String? = nil, attribution: WyomingAttribution = WyomingAttribution(),
        installed: Bool = true, version: String? = nil
    ) {
        self.name = name
        self.description = description
        self.attribution = attribution
        self.installed = installed
        self.version = version
    }

    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        self.init(
            name: try fields.string("name"),
            description: try fields.optionalString("description"),
            attribution: try WyomingAttribution(try fields.optionalObject("attribution")),
            installed: try fields.bool("installed", default: true),
            version: try fields.optionalString("version")
        )
    }

    /// The members in the reference implementation's order; each kind appends its own after them.
    var members: JSONObject {
        [
            "name": .string(name), "attribution": attribution.json, "installed": .bool(installed),
            "description": .optional(description), "version": .optional(version),
        ]
    }
}

/// Who made a program or model, and where to find it.
public struct WyomingAttribution: Equatable, Sendable {
    public var name: String
    public var url: String

    public init(name: String = "", url: String = "") {
        self.name = name
        self.url = url
    }

    init(_ fields: WyomingFields?) throws(WyomingMessageError) {
        self.init(name: try fields?.optionalString("name") ?? "", url: try fields?.optionalString("url") ?? "")
    }

    var json: JSONValue { ["name": .string(name), "url": .string(url)] }
}
