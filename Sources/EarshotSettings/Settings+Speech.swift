extension Settings {
    /// `[speech]`: who speaks replies, and in which voice.
    public struct Speech: Equatable, Sendable {
        /// `embedded` (flite, espeak-ng), `none`, or a Wyoming server.
        public var backend = "embedded"
        /// The voice replies are spoken in, by id or name.
        public var voice = "breeze"
        /// Where the bundled voices are; nil: next to the executable, or the source checkout.
        public var voicesDirectory: String?

        public init() {}
    }
}
