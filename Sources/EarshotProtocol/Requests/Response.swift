public import EarshotBase

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

// MARK: Decoding

extension Response {
    /// Reads a response line (with or without its newline), as a client does.
    public init(jsonLine line: some Collection<UInt8>) throws(MessageDecodingError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw MessageDecodingError(description: "not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw MessageDecodingError(description: "not a response: it needs \"id\" and a boolean \"ok\"")
        }
        try self.init(object: object)
    }

    /// Reads a response from the object of its line.
    public init(object: JSONObject) throws(MessageDecodingError) {
        guard let id = object["id"], let ok = object["ok"]?.boolValue else {
            throw MessageDecodingError(description: "not a response: it needs \"id\" and a boolean \"ok\"")
        }
        if ok {
            self.init(id: id, result: .success(JSONObject(object.members.filter { $0.key != "id" && $0.key != "ok" })))
            return
        }
        guard let code = object["error"]?["code"]?.stringValue, let message = object["error"]?["message"]?.stringValue
        else {
            throw MessageDecodingError(description: "a failed response needs \"error\" with string \"code\" and \"message\"")
        }
        self.init(id: id, result: .failure(ProtocolError(code: code, message: message)))
    }
}

/// What running a command gave: the result keys of a success, or the error of a failure.
public enum CommandResult: Hashable, Sendable {
    /// Succeeded; `fields` follow `"id"` and `"ok":true` in the response, in order.
    case success(JSONObject)
    case failure(ProtocolError)
}
