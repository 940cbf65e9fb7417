extension Settings {
    /// `[audio]`: the sound server and its devices.
    public struct Audio: Equatable, Sendable {
        /// The sound server (`unix:/path` or a host); nil: libpulse's own choice (`PULSE_SERVER`).
        public var server: String?
        /// The source (microphone) to record from; nil: follow the server's default.
        public var source: String?
        /// The sink (speaker) to play to; nil: follow the server's default.
        public var sink: String?
        /// Capture and play through PulseAudio's echo canceller (module-echo-cancel, webrtc).
        public var echoCancellation = false
        /// Play a short cue when voice mode starts and ends.
        public var cues = false

        public init() {}
    }
}
