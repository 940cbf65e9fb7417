/// Why a transcription failed, in words a person can act on.
public struct TranscriptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The backend could not be reached or went away; the same audio may succeed later.
        case unavailable
        /// The backend did not answer in time; the same audio may succeed later.
        case timedOut
        /// The backend answered with an error of its own.
        case rejected
        /// The backend could not be set up (a missing model, a bad address); retrying will not help.
        case misconfigured
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether sending the same utterance again later may succeed.
    public var isRetryable: Bool { kind == .unavailable || kind == .timedOut }

    public var description: String { message }
}
