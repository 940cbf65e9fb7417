import EarshotJSON
import EarshotProtocol

/// One line from the daemon: a response (it has `"ok"`) or an event (it has `"event"`).
enum DaemonMessage: Equatable {
    case response(DaemonResponse)
    case event(DaemonEvent)

    init(line: String) throws(ClientError) {
        guard let body = try? JSONParser.parse(Array(line.utf8)), let object = body.objectValue else {
            throw .protocolViolation("a line that is not a JSON object: \(Self.excerpt(line))")
        }
        if object["event"]?.stringValue != nil {
            self = .event(DaemonEvent(line: line, body: body))
        } else if object["ok"]?.boolValue != nil {
            do {
                self = .response(DaemonResponse(line: line, response: try Response(object: object)))
            } catch {
                throw .protocolViolation("\(error.description): \(Self.excerpt(line))")
            }
        } else {
            throw .protocolViolation("a line that is neither a response nor an event: \(Self.excerpt(line))")
        }
    }

    static func excerpt(_ line: String) -> String {
        line.count <= 120 ? line : String(line.prefix(120)) + "…"
    }
}
