/// Why a conversation with a server ended without its answer, as the state machines see it.
public enum WyomingFailure: Equatable, Sendable {
    /// The server answered `error`.
    case rejected(WyomingErrorMessage)
    /// The server closed the connection before the answer was complete.
    case closedEarly
    /// The server's info lists no program for the service asked of it (a text-to-speech server
    /// asked for a transcript, say); the words name what it does offer.
    case notOffered(String)
    /// The server sent something this client cannot use.
    case unusable(String)
}
