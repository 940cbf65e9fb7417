import EarshotProtocol

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
