import EarshotProtocol

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
