/// The opening every conversation shares: `describe`, then the server's `info`, which must list
/// the service asked for; an `error` from the server fails the conversation at any point.
///
/// The machines embed it and keep their own states around it.
struct WyomingHandshake: Sendable {
    /// What an event that arrives while the info is awaited means.
    enum Reply: Sendable {
        /// The info, which lists the service.
        case accepted(WyomingInfo)
        case failed(WyomingFailure)
        /// Some other event, which is ignored.
        case ignored
    }

    let service: WyomingService
    /// The server's info, once it has listed the service.
    private(set) var info: WyomingInfo?

    init(service: WyomingService) {
        self.service = service
    }

    /// The events that open the conversation.
    var opening: [WyomingEvent] { [WyomingDescribe().event] }

    mutating func reply(to event: WyomingEvent) -> Reply {
        switch event.type {
        case WyomingInfo.eventType:
            let info: WyomingInfo
            do {
                info = try WyomingInfo(event)
            } catch {
                return .failed(.unusable(error.description))
            }
            guard Self.offers(service, info) else {
                let other: WyomingService = service == .speechToText ? .textToSpeech : .speechToText
                let offered = Self.offers(other, info) ? "only \(other.name)" : "no services"
                return .failed(.notOffered("its info lists \(offered)"))
            }
            self.info = info
            return .accepted(info)
        case WyomingErrorMessage.eventType:
            return .failed(Self.rejection(event))
        default:
            return .ignored
        }
    }

    /// What an `error` event from the server means.
    static func rejection(_ event: WyomingEvent) -> WyomingFailure {
        .rejected((try? WyomingErrorMessage(event)) ?? WyomingErrorMessage(text: ""))
    }

    private static func offers(_ service: WyomingService, _ info: WyomingInfo) -> Bool {
        switch service {
        case .speechToText: !info.asr.isEmpty
        case .textToSpeech: !info.tts.isEmpty
        }
    }
}

/// Which of its services a Wyoming server is asked for.
public enum WyomingService: Sendable {
    case speechToText
    case textToSpeech

    public var name: String {
        switch self {
        case .speechToText: "speech-to-text"
        case .textToSpeech: "text-to-speech"
        }
    }

    /// What the server owes at the end, as in "closed the connection before sending …".
    public var answer: String {
        switch self {
        case .speechToText: "a transcript"
        case .textToSpeech: "all the audio"
        }
    }
}

/// Why a conversation with a server ended without its answer, as the state machines see it.
public enum WyomingFailure: Equatable, Sendable {
    /// The server answered `error`.
    case rejected(WyomingErrorMessage)
    /// The server closed the connection before the answer was complete.
    case closedEarly
    /// The server's info lists no program for the service asked of it (a text-to-speech server
    /// asked for a transcript, say); the words name what it does offer.
    case notOffered(String)
    /// The server sent something this client cannot use.
    case unusable(String)
}
