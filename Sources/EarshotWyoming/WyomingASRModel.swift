import EarshotProtocol

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
