public import EarshotBase
public import EarshotProtocol

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

/// The daemon's answer to one request: `{"id":…,"ok":true,…}` or `{"id":…,"ok":false,"error":{…}}`,
/// read as the protocol's ``Response``.
public struct DaemonResponse: Sendable, Equatable {
    /// The line exactly as the daemon sent it (without its `\n`).
    public let line: String
    public let response: Response

    public init(line: String, response: Response) {
        self.line = line
        self.response = response
    }

    public var id: JSONValue { response.id }

    public var ok: Bool {
        if case .success = response.result { true } else { false }
    }

    /// The error's code and message of a failure.
    public var error: ProtocolError? {
        if case .failure(let error) = response.result { error } else { nil }
    }

    /// The result keys of a success (all but `id` and `ok`); none for a failure.
    public var fields: JSONObject {
        if case .success(let fields) = response.result { fields } else { [:] }
    }

    /// The result keys as one object, as the summary of `devices` reads them.
    public var results: JSONValue { .object(fields) }

    /// The answer to `status`.
    public var status: DaemonStatus { DaemonStatus(fields: fields) }

    /// The voice UI's state that `status`, the turn commands and `speak` answer with; `nil` when
    /// the response has none the client can read.
    public var state: VoiceState? {
        fields["state"]?.objectValue.flatMap { try? VoiceState(fields: $0) }
    }

    /// A result key of the response.
    public subscript(key: String) -> JSONValue? { fields[key] }
}

/// An event the daemon pushed to this subscriber (PROTOCOL.md): the line as it came, and the
/// protocol's event read from it.
public struct DaemonEvent: Sendable, Equatable {
    /// The line exactly as the daemon sent it (without its `\n`).
    public let line: String
    /// The whole object.
    public let body: JSONValue
    /// The event; `nil` for a kind this client does not know yet, or one it cannot read.
    public let event: SocketEvent?
    /// When the daemon sent it, Unix seconds.
    public let wall: Double?

    public init(line: String, body: JSONValue) {
        self.line = line
        self.body = body
        let object = body.objectValue ?? [:]
        event = try? SocketEvent(object: object)
        wall = SocketEvent.wall(of: object)
    }

    /// The event's kind: its `"event"` key.
    public var kind: String { body["event"]?.stringValue ?? "" }

    /// The topic the event belongs to, which its kind names; `nil` for a kind this client does
    /// not know yet.
    public var topic: EventTopic? { EventTopic(rawValue: kind) }

    public subscript(key: String) -> JSONValue? { body[key] }
}
