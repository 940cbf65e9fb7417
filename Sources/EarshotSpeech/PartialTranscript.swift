/// A transcriber's running hypothesis of the utterance so far.
public struct PartialTranscript: Sendable, Hashable {
    /// The words heard so far.
    public var text: String
    /// log10 of the probability that a sentence ends after `text`, by the recogniser's own
    /// language model; nil from a backend that has none to ask (a server). The endpointer waits
    /// longer where a sentence is unlikely to end.
    public var sentenceEnd: Double?
    /// How many samples of the utterance's audio, from its first chunk, the words account for;
    /// nil from a backend that cannot say. A transcriber that can repeats its hypothesis, the
    /// same words, as it takes more audio: the endpointer trusts words that reach the silence.
    public var coveredSamples: Int?
    /// Where, in samples from the utterance's first chunk, the last word of `text` ends (silence,
    /// noise and the sentence's end not counted); nil from a backend that cannot say. Speech
    /// after it that no word accounts for means the last word heard is not the last one said.
    public var wordsEndSamples: Int?

    public init(text: String, sentenceEnd: Double? = nil, coveredSamples: Int? = nil, wordsEndSamples: Int? = nil) {
        self.text = text
        self.sentenceEnd = sentenceEnd
        self.coveredSamples = coveredSamples
        self.wordsEndSamples = wordsEndSamples
    }
}
