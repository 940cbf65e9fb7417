/// Why the responder command gave no (complete) reply, in words fit to show the user.
public struct ResponderError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The shell could not find the command (it exited with status 127).
        case notFound
        /// The command exited with a status other than 0.
        case failed(status: Int32)
        case killedBySignal(Int32)
        /// The command printed nothing for the responder's timeout and was stopped.
        case timedOut
        /// The command could not be started or run at all (no pipe, no process, status 126).
        case couldNotStart
    }

    public let kind: Kind
    public let message: String

    public var description: String { message }

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}
