extension Settings {
    /// `[transcription]`: who turns speech into text, and in which language.
    public struct Transcription: Equatable, Sendable {
        /// `embedded` (pocketsphinx), `none`, or a Wyoming server (`tcp://HOST:PORT`, `unix:///PATH`).
        public var backend = "embedded"
        /// The language spoken (BCP 47).
        public var language = "en-US"

        public init() {}
    }
}
