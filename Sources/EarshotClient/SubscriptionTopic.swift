/// What a subscriber can ask the daemon to push (`subscribe`'s `topics`).
public enum SubscriptionTopic: String, Sendable, CaseIterable {
    case state
    case speech
    case transcript
    case speaker
    case level
    case error
    case device
    case config
}
