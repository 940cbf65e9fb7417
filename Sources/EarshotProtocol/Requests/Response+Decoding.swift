public import EarshotJSON

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
