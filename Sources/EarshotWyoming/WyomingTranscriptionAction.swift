/// What the I/O side must do after an input to ``WyomingTranscriptionMachine``.
public enum WyomingTranscriptionAction: Equatable, Sendable {
    case none
    /// Write these events, in order.
    case send([WyomingEvent])
    /// The running transcript changed (streaming servers only); the whole text so far.
    case partial(String)
    /// The final transcript: the conversation is over.
    case final(String)
    /// The conversation failed: close the connection.
    case fail(WyomingFailure)
}
