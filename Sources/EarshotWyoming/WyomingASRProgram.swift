import EarshotProtocol

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
