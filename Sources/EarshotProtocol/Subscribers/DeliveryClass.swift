/// How a subscriber queue treats an event: `level` readings may be thinned and dropped; every
/// other event must be delivered or the subscriber disconnected.
public enum DeliveryClass: Hashable, Sendable {
    /// A level reading of `source` stamped at audio time `time`.
    case level(LevelEvent.Source, time: Double)
    /// Any other event: `state`, `speech`, `transcript`, `speaker`, `error`, `device` or `config`.
    case essential(EventTopic)

    public var topic: EventTopic {
        switch self {
        case .level: .level
        case .essential(let topic): topic
        }
    }
}
