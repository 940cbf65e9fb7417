extension Settings {
    /// `[privacy]`: what the daemon may keep of what the microphone heard.
    public struct Privacy: Equatable, Sendable {
        /// How many of the latest turns' audio (with transcript and reply) to keep on disk for
        /// bug reports; 0 keeps none, and no audio is written at all.
        public var debugTurns = 0

        public init() {}
    }
}
