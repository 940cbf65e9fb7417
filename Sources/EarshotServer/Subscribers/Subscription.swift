import EarshotBase
import EarshotProtocol

/// What a client subscribed to.
struct Subscription: Hashable, Sendable {
    var topics: Set<EventTopic>
    /// The most `level` events per second of audio the client wants.
    var levelHz: Int

    init(topics: Set<EventTopic> = Set(EventTopic.allCases), levelHz: Int = Command.defaultLevelHz) {
        self.topics = topics
        self.levelHz = levelHz
    }

    /// What a successful `subscribe` answers.
    var answer: SubscriptionAnswer {
        SubscriptionAnswer(topics: topics, levelHz: levelHz)
    }
}

/// How a client's outbox treats an event: `level` readings may be thinned and replaced by newer
/// ones; every other event must be delivered or the subscriber disconnected.
enum DeliveryClass: Hashable, Sendable {
    /// A level reading of `source` stamped at audio time `time`.
    case level(LevelEvent.Source, time: Double)
    /// Any other event: `state`, `speech`, `transcript`, `speaker`, `error`, `device` or `config`.
    case essential(EventTopic)

    var topic: EventTopic {
        switch self {
        case .level: .level
        case .essential(let topic): topic
        }
    }
}

extension SocketEvent {
    var deliveryClass: DeliveryClass {
        if case .level(let event) = self { return .level(event.source, time: event.time) }
        return .essential(topic)
    }
}
