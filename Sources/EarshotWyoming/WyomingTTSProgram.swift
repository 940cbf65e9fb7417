import EarshotProtocol

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
