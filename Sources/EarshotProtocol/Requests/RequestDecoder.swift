import EarshotJSON

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
