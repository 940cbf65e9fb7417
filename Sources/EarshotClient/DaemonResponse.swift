/// The daemon's answer to one request: `{"id":…,"ok":true,…}` or `{"id":…,"ok":false,"error":{…}}`.
public struct DaemonResponse: Sendable, Equatable {
    /// The line exactly as the daemon sent it (without its `\n`).
    public let line: String
    /// The whole object.
    public let body: JSON

    public init(line: String, body: JSON) {
        self.line = line
        self.body = body
    }

    public var id: JSON { body["id"] ?? .null }
    public var ok: Bool { body["ok"]?.bool ?? false }
    public var errorCode: String? { body["error"]?["code"]?.string }
    public var errorMessage: String? { body["error"]?["message"]?.string }

    /// A result key of the response.
    public subscript(key: String) -> JSON? { body[key] }
}
