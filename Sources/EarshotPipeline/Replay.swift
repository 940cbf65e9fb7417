public import EarshotAudio
public import EarshotDetection

/// Runs a recording through a fresh ``VoicePipeline`` and renders its events as JSON lines.
public struct Replay<Detector: VoiceActivityDetector> {
    public var pipeline: VoicePipeline<Detector>
    private var json = JSONLineWriter()

    public init(detector: Detector, configuration: VoicePipeline<Detector>.Configuration) {
        pipeline = VoicePipeline(detector: detector, configuration: configuration)
    }

    /// Processes the whole clip as fast as possible; `write` receives the output in chunks.
    public mutating func run(_ clip: AudioClip, write: ([UInt8]) -> Void) {
        let flushThreshold = 64 * 1024
        for frame in clip.frames {
            feed(frame)
            if json.bytes.count >= flushThreshold { flush(to: write) }
        }
        end()
        flush(to: write)
    }

    /// Feeds one frame, buffering its events' lines.
    public mutating func feed(_ frame: borrowing AudioFrame) {
        pipeline.process(frame) { $0.write(to: &json) }
    }

    /// Ends the stream, buffering the last events' lines.
    public mutating func end() {
        pipeline.finish { $0.write(to: &json) }
    }

    /// Hands the buffered lines to `write` (if any) and empties the buffer.
    public mutating func flush(to write: ([UInt8]) -> Void) {
        guard !json.bytes.isEmpty else { return }
        write(json.bytes)
        json.removeAll()
    }
}
