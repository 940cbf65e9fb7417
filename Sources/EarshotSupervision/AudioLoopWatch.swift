/// Judges from successive samples whether the audio loop is healthy: the pipeline thread keeps
/// turning, and while connected and capturing, frames keep arriving.
///
/// A lost sound server is not a stall (the daemon reconnects by itself), nor is a closed
/// microphone: frames are only expected while connected and capturing, and only after `limit`
/// has passed since they started being expected.
public struct AudioLoopWatch: Equatable, Sendable {
    /// How long the loop or the frames may stand still before the loop counts as stuck.
    public let limit: Duration
    private var loops: Progress?
    private var frames: Progress?
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
        if loops?.count != sample.pipelineLoops {
            loops = Progress(count: sample.pipelineLoops, since: sample.time)
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
