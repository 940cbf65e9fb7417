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
