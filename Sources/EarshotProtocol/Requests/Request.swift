public import EarshotJSON

/// One request from a client: the command to run and the `id` to echo in its response.
public struct Request: Hashable, Sendable {
    /// Echoed unchanged in the response; `null` when the request had none.
    public var id: JSONValue
    public var command: Command

    public init(id: JSONValue = .null, command: Command) {
        self.id = id
        self.command = command
    }

    /// The request as one JSON line: `id` (when not null), `cmd`, then the arguments.
    public func jsonLine() -> [UInt8] {
        var object = JSONObject()
        if id != .null { object.append("id", id) }
        object.append("cmd", .string(command.name))
        object.members += command.arguments.members
        var bytes: [UInt8] = []
        JSONValue.object(object).write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
