import EarshotWyoming

/// What happened on a connection, in the order it happened: the server's events and the
/// caller's own inputs (audio, for a transcription) merged into one stream.
enum WyomingInput<Local: Sendable>: Sendable {
    case event(WyomingEvent)
    /// The server closed the connection.
    case serverClosed
    case broken(WyomingClientFailure)
    /// The response deadline passed.
    case timedOut
    case local(Local)
}
