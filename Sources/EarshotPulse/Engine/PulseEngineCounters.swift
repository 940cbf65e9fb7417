/// How capture has gone since the engine started.
public struct PulseEngineCounters: Sendable, Hashable {
    /// Frames delivered by the server (including hole and dropped ones).
    public var framesCaptured: Int
    /// Frames that contained audio the server lost, filled with silence.
    public var holeFrames: Int
    /// Frames dropped because the consumer fell more than the ring's capacity behind.
    public var overflowFrames: Int
    /// Times the engine connected again after losing the server.
    public var reconnects: Int

    public init(framesCaptured: Int = 0, holeFrames: Int = 0, overflowFrames: Int = 0, reconnects: Int = 0) {
        self.framesCaptured = framesCaptured
        self.holeFrames = holeFrames
        self.overflowFrames = overflowFrames
        self.reconnects = reconnects
    }
}
