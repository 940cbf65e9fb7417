public import EarshotPipeline

/// How a subscriber queue treats an event: `level` readings may be thinned and dropped; every
/// other event must be delivered or the subscriber disconnected.
public enum DeliveryClass: Hashable, Sendable {
    /// A level reading of `source` stamped at audio time `time`.
    case level(LevelSource, time: Double)
    /// A `state`, `speech`, `error` or `device` event.
    case essential(EventTopic)

    public var topic: EventTopic {
        switch self {
        case .level: .level
        case .essential(let topic): topic
        }
    }
}
