/// What the daemon's supervisor sees of the audio loop at one moment; taken a few times a second.
public struct AudioLoopSample: Equatable, Sendable {
    /// Time since the daemon started (monotonic).
    public var time: Duration
    /// Whether front ends can connect: the socket listens.
    public var isSocketListening: Bool
    /// Turns of the pipeline thread's loop so far: it turns at least ten times a second while alive.
    public var pipelineLoops: Int
    /// Frames delivered by the sound server so far.
    public var framesCaptured: Int
    public var soundServer: SoundServerState
    /// Whether the microphone is wanted (voice mode on): frames should flow while connected.
    public var isCapturing: Bool

    public init(
        time: Duration, isSocketListening: Bool, pipelineLoops: Int, framesCaptured: Int,
        soundServer: SoundServerState, isCapturing: Bool
    ) {
        self.time = time
        self.isSocketListening = isSocketListening
        self.pipelineLoops = pipelineLoops
        self.framesCaptured = framesCaptured
        self.soundServer = soundServer
        self.isCapturing = isCapturing
    }
}
