import EarshotBase
import EarshotProtocol

/// What a client subscribed to.
struct Subscription: Hashable, Sendable {
    let topics: Set<EventTopic>
    /// `topics`, a bit each: every event is tested against it on the publishing thread, which
    /// is the audio thread for the pipeline's events (sixty level readings a second).
    private let topicBits: UInt32
    /// The most `level` events per second of audio the client wants.
    var levelHz: Int

    init(topics: Set<EventTopic> = Set(EventTopic.allCases), levelHz: Int = Command.defaultLevelHz) {
        self.topics = topics
        self.topicBits = Self.bits(of: topics)
        self.levelHz = levelHz
    }

    func includes(_ topic: EventTopic) -> Bool {
        topicBits & topic.bit != 0
    }

    private static func bits(of topics: Set<EventTopic>) -> UInt32 {
        topics.reduce(0) { $0 | $1.bit }
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

extension EventTopic {
    fileprivate var bit: UInt32 {
        switch self {
        case .state: 1 << 0
        case .speech: 1 << 1
        case .transcript: 1 << 2
        case .speaker: 1 << 3
        case .level: 1 << 4
        case .error: 1 << 5
        case .device: 1 << 6
        case .config: 1 << 7
        case .wake: 1 << 8
        }
    }
}
