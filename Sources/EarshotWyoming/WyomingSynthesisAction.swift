/// What the I/O side must do after an input to ``WyomingSynthesisMachine``.
public enum WyomingSynthesisAction: Equatable, Sendable {
    case none
    /// Write these events, in order.
    case send([WyomingEvent])
    /// Play these mono 16-bit samples.
    case audio(samples: [Int16], sampleRate: Int)
    /// All the audio has arrived: the conversation is over.
    case finished
    /// The conversation failed: close the connection.
    case fail(WyomingFailure)
}
