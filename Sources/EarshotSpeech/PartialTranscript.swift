/// A transcriber's running hypothesis of the utterance so far.
public struct PartialTranscript: Sendable, Hashable {
    /// The words heard so far.
    public var text: String
    /// log10 of the probability that a sentence ends after `text`, by the recogniser's own
    /// language model; nil from a backend that has none to ask (a server). The endpointer waits
    /// longer where a sentence is unlikely to end.
    public var sentenceEnd: Double?

    public init(text: String, sentenceEnd: Double? = nil) {
        self.text = text
        self.sentenceEnd = sentenceEnd
    }
}
