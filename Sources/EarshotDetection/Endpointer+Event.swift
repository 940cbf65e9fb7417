extension Endpointer {
    /// An utterance boundary. Frames are stream frame indices (seconds = frame × 0.01).
    public enum Event: Equatable, Sendable {
        /// Speech began at `onsetFrame` but is not yet long enough to be an utterance
        /// (useful to duck playback on a possible barge-in).
        case onsetSuspected(onsetFrame: Int)
        /// The minimum speech is confirmed. `onsetFrame` is the first speech frame of the run;
        /// the utterance's audio starts at `audioStartFrame` (onset − prefix padding, never
        /// before 0 nor before the previous utterance's end).
        case speechStarted(onsetFrame: Int, audioStartFrame: Int)
        /// The suspected onset at `onsetFrame` ended before the minimum speech: a noise burst.
        case onsetRejected(onsetFrame: Int)
        /// The utterance that began at `onsetFrame` ended; `endFrame` is exclusive (the frame
        /// after its last speech frame).
        case speechEnded(onsetFrame: Int, endFrame: Int)
    }
}
