public import EarshotBase

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

/// Turns one line from a client (without its newline) into a request, or into the error
/// response the line deserves. Checks run in the order of PROTOCOL.md's bad-input table.
public enum RequestDecoder {
    public static func decode(_ line: some Collection<UInt8>) -> Result<Request, InvalidRequest> {
        let bytes = Array(line)
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            return .failure(InvalidRequest(error: .invalidUTF8(offset: offset)))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .failure(InvalidRequest(error: .invalidJSON(error)))
        }
        guard let object = value.objectValue else {
            return .failure(InvalidRequest(error: .notAnObject(value)))
        }
        let id = object["id"] ?? .null
        guard let name = object["cmd"]?.stringValue else {
            return .failure(InvalidRequest(id: id, error: .missingCommand(found: object["cmd"])))
        }
        do {
            return .success(Request(id: id, command: try Command(name: name, arguments: object)))
        } catch {
            return .failure(InvalidRequest(id: id, error: error))
        }
    }
}

/// A line that is not a request the daemon can run: the error to answer with, and the `id` to
/// echo (`null` unless the line was an object with one).
public struct InvalidRequest: Error, Hashable, Sendable {
    public var id: JSONValue
    public var error: ProtocolError

    public init(id: JSONValue = .null, error: ProtocolError) {
        self.id = id
        self.error = error
    }

    /// The response that answers the line.
    public var response: Response {
        Response(id: id, result: .failure(error))
    }
}
