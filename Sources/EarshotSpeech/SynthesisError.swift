/// Why synthesis failed, in words a person can act on.
public struct SynthesisError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The backend could not be reached or went away.
        case unavailable
        /// The backend did not answer in time.
        case timedOut
        /// The backend answered with an error of its own (an unknown voice, say).
        case rejected
        /// The voice has no settings for this backend, or the engine is missing.
        case misconfigured
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
