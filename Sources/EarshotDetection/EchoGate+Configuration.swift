extension EchoGate {
    /// Tuning of the echo gate. Levels in dB; times in 10 ms frames.
    public struct Configuration: Equatable, Sendable {
        /// The longest delay from `played` to the echo in `captured` (default 32 frames, 320 ms).
        public var maximumDelayFrames: Int
        /// How far above the predicted echo plus noise a band must be to count as unexplained
        /// (default 8 dB).
        public var marginDecibels: Float
        /// Unexplained bands (of 16) that make a frame near-end (default 3).
        public var minimumUnexplainedBands: Int
        /// Frames after a near-end frame during which one unexplained band is enough to stay
        /// near-end (default 5).
        public var holdFrames: Int
        /// Coupling from loudspeaker to microphone assumed until it is measured, per band
        /// (default 0 dB: the loudest plausible, a loopback).
        public var assumedCouplingDecibels: Float
        /// Fastest fall of the predicted echo once the playback falls silent, which covers the
        /// room's reverberation (default 1.5 dB per frame: 60 dB in 400 ms).
        public var tailDecayDecibelsPerFrame: Float

        public init(
            maximumDelayFrames: Int = 32,
            marginDecibels: Float = 8,
            minimumUnexplainedBands: Int = 3,
            holdFrames: Int = 5,
            assumedCouplingDecibels: Float = 0,
            tailDecayDecibelsPerFrame: Float = 1.5
        ) {
            self.maximumDelayFrames = maximumDelayFrames
            self.marginDecibels = marginDecibels
            self.minimumUnexplainedBands = minimumUnexplainedBands
            self.holdFrames = holdFrames
            self.assumedCouplingDecibels = assumedCouplingDecibels
            self.tailDecayDecibelsPerFrame = tailDecayDecibelsPerFrame
        }
    }
}
