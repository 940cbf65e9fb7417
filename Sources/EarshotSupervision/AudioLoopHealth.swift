/// Whether the audio loop is doing its work, as the watchdog judges it.
public enum AudioLoopHealth: Equatable, Sendable {
    case healthy
    /// The pipeline thread has not turned its loop for longer than the limit: it is stuck.
    case pipelineStalled
    /// Connected and capturing, but no frame came from `source` for longer than the limit.
    case captureStalled(source: String)
}
