public import EarshotJSON

/// The daemon's answer to one request.
public struct Response: Hashable, Sendable {
    /// The request's `id`, unchanged (`null` when it had none or was not an object).
    public var id: JSONValue
    public var result: CommandResult

    public init(id: JSONValue, result: CommandResult) {
        self.id = id
        self.result = result
    }

    /// `{"id":…,"ok":true,…results}` or `{"id":…,"ok":false,"error":{"code":…,"message":…}}`,
    /// newline-terminated.
    public func jsonLine() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        bytes.append(contentsOf: #"{"id":"#.utf8)
        id.write(to: &bytes)
        switch result {
        case .success(let fields):
            bytes.append(contentsOf: #","ok":true"#.utf8)
            fields.writeMembers(to: &bytes, leadingComma: true)
        case .failure(let error):
            bytes.append(contentsOf: #","ok":false,"error":"#.utf8)
            JSONValue.object(["code": .string(error.code), "message": .string(error.message)]).write(to: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }
}
