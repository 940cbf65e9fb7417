/// What a subscriber can ask for; every socket event belongs to exactly one topic, whose name is
/// also the event's kind (its `"event"` key).
public enum EventTopic: String, Hashable, Sendable, CaseIterable, Comparable {
    case state, speech, transcript, speaker, level, error, device, config

    /// The topics in their documented order, which is also how responses list them.
    public static func < (lhs: EventTopic, rhs: EventTopic) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
