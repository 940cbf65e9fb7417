extension Settings {
    /// `[daemon]`: how `earshotd` itself runs.
    public struct Daemon: Equatable, Sendable {
        /// The socket path; nil: `$XDG_RUNTIME_DIR/earshot/earshot.sock`.
        public var socket: String?
        /// Enter voice mode at once (hands-free), without waiting for a front end's `start`.
        public var listen = false

        public init() {}
    }
}
