import EarshotProtocol

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
