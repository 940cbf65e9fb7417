
/// Which of the API's services a request was for: it names the server in messages.
public enum OpenAIService: Sendable {
    case speechToText
    case textToSpeech
    /// Chat completions, for the assistant.
    case chat

    public var name: String {
        switch self {
        case .speechToText: "speech-to-text"
        case .textToSpeech: "text-to-speech"
        case .chat: "chat"
        }
    }

    /// The API path it posts to, after the base URL.
    public var path: String {
        switch self {
        case .speechToText: "audio/transcriptions"
        case .textToSpeech: "audio/speech"
        case .chat: "chat/completions"
        }
    }

    /// The setting that names the key file for it.
    var keyFileSetting: String {
        switch self {
        case .speechToText: "[transcription] api_key_file"
        case .textToSpeech: "[speech] api_key_file"
        case .chat: "[assistant] api_key_file"
        }
    }
}

/// Why a request to an OpenAI-compatible server failed, before it is worded for a person.
public enum OpenAIFailure: Error, Equatable, Sendable {
    /// No connection could be made; the reason as the system words it ("connection refused").
    case unreachable(String)
    /// Nothing came within the time allowed; `awaiting` says what ("the transcript").
    case timedOut(awaiting: String, Duration)
    /// The connection failed after it was made.
    case connectionBroken(String)
    /// The server answered with an error status; its message, when the body had one.
    case status(Int, message: String?, retryAfter: Duration?)
    /// The server answered 200 with something that is not what the API promises.
    case unusable(String)

    /// The longest `Retry-After` honoured: a voice conversation cannot wait longer, and the
    /// utterance is kept and tried again after it anyway.
    public static let longestRetryAfter = Duration.seconds(60)

    /// The failure worded for a person: "The OpenAI-compatible speech-to-text server at URL …".
    public func speechError(_ service: OpenAIService, endpoint: OpenAIEndpoint) -> SpeechError {
        let server = "The OpenAI-compatible \(service.name) server at \(endpoint.baseURL)"
        switch self {
        case .unreachable(let reason):
            return SpeechError(.unavailable, "\(server) is not answering (\(reason)).")
        case .timedOut(let awaiting, let timeout):
            return SpeechError(.timedOut, "\(server) did not answer within \(timeout.secondsText) (waiting for \(awaiting)).")
        case .connectionBroken(let reason):
            return SpeechError(.unavailable, "\(server) dropped the connection (\(reason)).")
        case .unusable(let what):
            return SpeechError(.misconfigured, "\(server) sent \(what); is it an OpenAI-compatible server?")
        case .status(let code, let message, let retryAfter):
            let said = "\(code) \(Self.reason(code))" + (message.map { ": \($0)" } ?? "")
            let wait = retryAfter.map { min($0, Self.longestRetryAfter) }
            switch code {
            case 401:
                return SpeechError(
                    .misconfigured,
                    "\(server) refused the API key (\(said)). Set OPENAI_API_KEY or \(service.keyFileSetting) to a key it accepts."
                )
            case 403:
                return SpeechError(.misconfigured, "\(server) refused access (\(said)). The API key may not be allowed this model.")
            case 404 where service == .chat:
                return SpeechError(
                    .misconfigured,
                    "\(server) has no such model or no /\(service.path) (\(said)). Check [assistant] model and that the address ends with the API's base path, such as /v1."
                )
            case 404:
                return SpeechError(
                    .misconfigured,
                    "\(server) has no /\(service.path) (\(said)). Check the address ends with the API's base path, such as /v1."
                )
            case 408, 429:
                return SpeechError(.unavailable, "\(server) asked to slow down (\(said)).", retryAfter: wait)
            case 500...599:
                return SpeechError(.unavailable, "\(server) failed (\(said)).", retryAfter: wait)
            default:
                return SpeechError(.rejected, "\(server) refused the request (\(said)).")
            }
        }
    }

    static func reason(_ code: Int) -> String {
        switch code {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "error"
        }
    }
}
