/// Judges from successive samples whether the audio loop is healthy: the audio thread (where
/// the pipeline runs) keeps turning, and while connected and capturing, frames keep arriving.
///
/// A lost sound server is not a stall (the daemon reconnects by itself), nor is a closed
/// microphone: frames are only expected while connected and capturing, and only after `limit`
/// has passed since they started being expected. Nor is a gap in the samples themselves (the
/// machine asleep, or the sampler starved): time counts only while samples come regularly.
public struct AudioLoopWatch: Equatable, Sendable {
    /// How long the loop or the frames may stand still before the loop counts as stuck.
    public let limit: Duration
    /// A longer wait between two samples than this gives the loop the limit again.
    public static let longestSampleGap = Duration.seconds(2)
    private var loops: Progress?
    private var frames: Progress?
    private var lastSample: Duration?
    /// A frame arrived since frames began to be expected.
    public private(set) var isCaptureFlowing = false

    private struct Progress: Equatable, Sendable {
        var count: Int
        var since: Duration
    }

    public init(limit: Duration) {
        self.limit = limit
    }

    public mutating func observe(_ sample: AudioLoopSample) -> AudioLoopHealth {
        if let lastSample, sample.time - lastSample > Self.longestSampleGap {
            loops?.since = sample.time
            frames?.since = sample.time
        }
        lastSample = sample.time
        if loops?.count != sample.audioThreadTurns {
            loops = Progress(count: sample.audioThreadTurns, since: sample.time)
        }
        var capturingFrom: String?
        if case .connected(let source) = sample.soundServer, sample.isCapturing { capturingFrom = source }
        if capturingFrom != nil {
            if let previous = frames {
                if previous.count != sample.framesCaptured {
                    frames = Progress(count: sample.framesCaptured, since: sample.time)
                    isCaptureFlowing = true
                }
            } else {
                frames = Progress(count: sample.framesCaptured, since: sample.time)
                isCaptureFlowing = false
            }
        } else {
            frames = nil
            isCaptureFlowing = false
        }
        if let loops, sample.time - loops.since > limit { return .pipelineStalled }
        if let source = capturingFrom, let frames, sample.time - frames.since > limit {
            return .captureStalled(source: source)
        }
        return .healthy
    }
}

/// Whether the audio loop is doing its work, as the watchdog judges it.
public enum AudioLoopHealth: Equatable, Sendable {
    case healthy
    /// The audio thread, where the pipeline runs, has not turned for longer than the limit: it is stuck.
    case pipelineStalled
    /// Connected and capturing, but no frame came from `source` for longer than the limit.
    case captureStalled(source: String)
}

/// What the daemon's supervisor sees of the audio loop at one moment; taken a few times a second.
public struct AudioLoopSample: Equatable, Sendable {
    /// Time since the daemon started (monotonic).
    public var time: Duration
    /// Whether front ends can connect: the socket listens.
    public var isSocketListening: Bool
    /// Turns of the audio thread so far (the engine's heartbeat): four a second while alive.
    public var audioThreadTurns: Int
    /// Frames delivered by the sound server so far.
    public var framesCaptured: Int
    public var soundServer: SoundServerState
    /// Whether the microphone is wanted (voice mode on): frames should flow while connected.
    public var isCapturing: Bool

    public init(
        time: Duration, isSocketListening: Bool, audioThreadTurns: Int, framesCaptured: Int,
        soundServer: SoundServerState, isCapturing: Bool
    ) {
        self.time = time
        self.isSocketListening = isSocketListening
        self.audioThreadTurns = audioThreadTurns
        self.framesCaptured = framesCaptured
        self.soundServer = soundServer
        self.isCapturing = isCapturing
    }
}

/// The daemon's connection to the sound server, as the supervisor words it.
public enum SoundServerState: Equatable, Sendable {
    /// Not connected, and no failure reported yet (starting, or between a loss and its report).
    case connecting
    /// Connected, capturing from `source` whenever the microphone is wanted.
    case connected(source: String)
    /// The server could not be reached or went away (`reason`); the next attempt is in `retryIn`.
    case lost(reason: String, retryIn: Duration)
}
