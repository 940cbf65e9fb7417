public import EarshotJSON
public import EarshotProtocol

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
