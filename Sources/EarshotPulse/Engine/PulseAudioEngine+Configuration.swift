extension PulseAudioEngine {
    public struct Configuration: Sendable {
        /// The server to connect to; nil lets libpulse choose (`PULSE_SERVER`, then the user's).
        public var server: String?
        /// The source to capture from; nil follows the server's default.
        public var source: String?
        /// The sink to play on; nil follows the server's default.
        public var sink: String?
        /// How the engine's connection and streams are named on the server.
        public var applicationName: String
        public var retryBackoff: RetryBackoff
        /// How much captured audio may wait for the consumer before frames are dropped.
        public var ringDuration: Duration
        /// How far ahead of the speaker playback is buffered on the server; `stopPlayback` can
        /// not silence audio the server has already handed to the device, so keep this short.
        public var playbackLatency: Duration
        /// Whether to put PulseAudio's echo canceller (`module-echo-cancel`, WebRTC) between the
        /// engine and its devices, so the microphone does not hear the engine's own playback
        /// through speakers. Falls back to the plain devices when the server cannot load it; see
        /// `PulseEngineStatus.echoCancellation`. Assumes one such engine per server.
        public var echoCancellation: Bool
        /// The canceller's `aec_method`; tests set a bogus one to make loading fail.
        var echoCancellerMethod = "webrtc"

        public init(
            server: String? = nil, source: String? = nil, sink: String? = nil,
            applicationName: String = "Earshot", retryBackoff: RetryBackoff = RetryBackoff(),
            ringDuration: Duration = .seconds(2), playbackLatency: Duration = .milliseconds(40),
            echoCancellation: Bool = false
        ) {
            self.server = server
            self.source = source
            self.sink = sink
            self.applicationName = applicationName
            self.retryBackoff = retryBackoff
            self.ringDuration = ringDuration
            self.playbackLatency = playbackLatency
            self.echoCancellation = echoCancellation
        }
    }
}
