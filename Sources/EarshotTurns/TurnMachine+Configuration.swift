extension TurnMachine {
    /// The timeouts that keep every phase except `idle` and `listening` from waiting forever.
    public struct Configuration: Equatable, Sendable {
        /// How long the user must keep talking over the assistant before a suspected barge-in
        /// is confirmed and playback stops. Shorter catches interruptions faster; longer
        /// survives coughs and "mm-hm". Default 0.3 s.
        public var minimumInterruption: C.Duration
        /// The longest single utterance; after it the utterance is ended as if the user had
        /// paused, so a stuck voice activity detector cannot hold the turn. Default 60 s.
        public var maximumUtterance: C.Duration
        /// How long to wait for the final transcript after the user stops. Default 5 s.
        public var transcriptTimeout: C.Duration
        /// How long to wait for the responder's reply after the transcript. Default 15 s.
        public var replyTimeout: C.Duration
        /// How long synthesis may take before audio starts playing. Default 10 s.
        public var playbackStartTimeout: C.Duration
        /// A watchdog for playback that never reports finishing; longer than any sensible
        /// spoken reply. Default 5 minutes.
        public var maximumPlayback: C.Duration

        public init(
            minimumInterruption: C.Duration,
            maximumUtterance: C.Duration,
            transcriptTimeout: C.Duration,
            replyTimeout: C.Duration,
            playbackStartTimeout: C.Duration,
            maximumPlayback: C.Duration
        ) {
            self.minimumInterruption = minimumInterruption
            self.maximumUtterance = maximumUtterance
            self.transcriptTimeout = transcriptTimeout
            self.replyTimeout = replyTimeout
            self.playbackStartTimeout = playbackStartTimeout
            self.maximumPlayback = maximumPlayback
        }
    }
}

extension TurnMachine.Configuration where C.Duration == Swift.Duration {
    /// The defaults documented on each property.
    public static var standard: Self {
        Self(
            minimumInterruption: .milliseconds(300),
            maximumUtterance: .seconds(60),
            transcriptTimeout: .seconds(5),
            replyTimeout: .seconds(15),
            playbackStartTimeout: .seconds(10),
            maximumPlayback: .seconds(300)
        )
    }
}
