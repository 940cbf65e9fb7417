/// A `wake` event: the wake phrase was heard, and a conversation begins.
public struct WakeEvent: Hashable, Sendable {
    /// The phrase that was heard, as configured.
    public var phrase: String
    /// Audio time the phrase was decided on (the end of the audio in which it was heard).
    public var time: Double

    public init(phrase: String, time: Double) {
        self.phrase = phrase
        self.time = time
    }
}
