/// One line from the daemon: a response (it has `"ok"`) or an event (it has `"event"`).
enum DaemonMessage: Equatable {
    case response(DaemonResponse)
    case event(DaemonEvent)

    init(line: String) throws(ClientError) {
        guard let body = JSON(parsing: line), body.object != nil else {
            throw .protocolViolation("a line that is not a JSON object: \(Self.excerpt(line))")
        }
        if body["event"]?.string != nil {
            self = .event(DaemonEvent(line: line, body: body))
        } else if body["ok"]?.bool != nil {
            self = .response(DaemonResponse(line: line, body: body))
        } else {
            throw .protocolViolation("a line that is neither a response nor an event: \(Self.excerpt(line))")
        }
    }

    static func excerpt(_ line: String) -> String {
        line.count <= 120 ? line : String(line.prefix(120)) + "…"
    }
}
