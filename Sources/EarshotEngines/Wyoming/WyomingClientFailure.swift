import EarshotSpeech

/// Why a request to a Wyoming server failed, before it is worded for a person.
enum WyomingClientFailure: Error, Equatable {
    /// The connection could not be made; the reason as the system words it ("connection refused").
    case unreachable(String)
    case connectTimedOut(Duration)
    /// The server owed an answer (described by `awaiting`) and sent nothing in time.
    case responseTimedOut(awaiting: String, Duration)
    /// Reading or writing failed after the connection was made.
    case connectionBroken(String)
    /// The server sent bytes that are not Wyoming events.
    case notWyoming(WyomingDecodingError)
    case conversation(WyomingFailure)
}

extension WyomingClientFailure {
    /// What follows "The Wyoming speech-to-text server at ADDRESS".
    func predicate(_ service: WyomingService) -> String {
        switch self {
        case .unreachable(let reason):
            "is not answering (\(reason))"
        case .connectTimedOut(let timeout):
            "did not accept the connection within \(timeout.secondsText)"
        case .responseTimedOut(let awaiting, let timeout):
            "did not answer within \(timeout.secondsText) (waiting for \(awaiting))"
        case .connectionBroken(let reason):
            "dropped the connection (\(reason))"
        case .notWyoming(let error):
            "does not speak the Wyoming protocol: \(error)"
        case .conversation(.closedEarly):
            "closed the connection before sending \(service.answer)"
        case .conversation(.rejected(let message)):
            "refused the request: \(Self.words(message))"
        case .conversation(.notOffered(let reason)):
            "offers no \(service.name) (\(reason))"
        case .conversation(.unusable(let reason)):
            "sent \(reason)"
        }
    }

    /// The failure worded for a person: "The Wyoming speech-to-text server at ADDRESS …".
    func speechError(_ service: WyomingService, endpoint: WyomingEndpoint) -> SpeechError {
        let message = "The Wyoming \(service.name) server at \(endpoint) \(predicate(service))"
        return switch self {
        case .unreachable, .connectionBroken, .conversation(.closedEarly): SpeechError(.unavailable, message)
        case .connectTimedOut, .responseTimedOut: SpeechError(.timedOut, message)
        case .conversation(.rejected): SpeechError(.rejected, message)
        case .notWyoming, .conversation(.notOffered), .conversation(.unusable): SpeechError(.misconfigured, message)
        }
    }

    private static func words(_ message: WyomingErrorMessage) -> String {
        switch (message.text.isEmpty, message.code) {
        case (true, nil): "no reason given"
        case (true, let code?): code
        case (false, nil): message.text
        case (false, let code?): "\(message.text) (\(code))"
        }
    }
}
