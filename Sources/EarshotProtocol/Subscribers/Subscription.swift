public import EarshotJSON

/// What a client subscribed to.
public struct Subscription: Hashable, Sendable {
    public var topics: Set<EventTopic>
    /// The most `level` events per second of audio the client wants.
    public var levelHz: Int

    public init(topics: Set<EventTopic> = Set(EventTopic.allCases), levelHz: Int = Command.defaultLevelHz) {
        self.topics = topics
        self.levelHz = levelHz
    }

    /// The result keys of a successful `subscribe`: `topics` (in documented order), `level_hz`.
    public var resultFields: JSONObject {
        ["topics": .array(topics.sorted().map { .string($0.rawValue) }), "level_hz": .integer(levelHz)]
    }
}
