import EarshotWyoming

/// Why a request to a Wyoming server failed, before it is worded for a person.
enum WyomingClientFailure: Error, Equatable {
    /// The connection could not be made; the reason as the system words it ("connection refused").
    case unreachable(String)
    case connectTimedOut(Duration)
    /// The server owed an answer (described by `awaiting`) and sent nothing in time.
    case responseTimedOut(awaiting: String, Duration)
    /// Reading or writing failed after the connection was made.
    case connectionBroken(String)
    /// The server sent bytes that are not Wyoming events.
    case notWyoming(WyomingDecodingError)
    case conversation(WyomingFailure)
}
