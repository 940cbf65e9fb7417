extension ScriptedDaemonPeer {
    /// One thing the scripted daemon does, in order.
    enum Step: Sendable {
        /// Reads the client's next line and sends back the lines made from it.
        case answer(@Sendable (Request) -> [String])
        /// Sends lines unasked (events, stray responses).
        case push([String])
        /// Sends raw text, e.g. half a line.
        case pushBytes(String)
        case pause(Duration)
        /// Closes the connection, as a daemon that stops does.
        case hangUp

        /// Answers the next request `{"id":…,"ok":true,<fields>}`.
        static func succeed(_ fields: String = "") -> Step {
            .answer { [$0.success(fields)] }
        }

        /// Answers the next request with a failure.
        static func fail(code: String, message: String) -> Step {
            .answer { [$0.failure(code: code, message: message)] }
        }
    }
}
