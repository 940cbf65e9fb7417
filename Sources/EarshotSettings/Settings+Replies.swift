extension Settings {
    /// `[replies]`: how long a reply may take, and the responder command that gives one.
    public struct Replies: Equatable, Sendable {
        /// Seconds `thinking` waits for a reply before returning to listening with an error.
        public var timeoutSeconds = 15.0
        /// A command that answers each final transcript (run with /bin/sh); nil: front ends answer.
        public var responder: String?
        /// Seconds the responder may stay silent before it is stopped.
        public var responderTimeoutSeconds = 30.0

        public init() {}
    }
}
