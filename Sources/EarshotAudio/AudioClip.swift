/// A whole recording decoded to 16 kHz mono, ready to be cut into frames.
public struct AudioClip: Sendable {
    /// Samples at 16 kHz, scaled to -1...1.
    public var samples: [Float]

    public init(samples: [Float]) {
        self.samples = samples
    }

    public var duration: Double { Double(samples.count) / Double(AudioFrame.sampleRate) }

    /// Number of frames; a final partial frame counts and is padded with silence.
    public var frameCount: Int { (samples.count + AudioFrame.sampleCount - 1) / AudioFrame.sampleCount }

    public func frame(at index: Int) -> AudioFrame {
        var frame = AudioFrame.silence(index: index)
        let start = index * AudioFrame.sampleCount
        let end = min(start + AudioFrame.sampleCount, samples.count)
        if start < end {
            for i in start..<end { frame.samples[i - start] = samples[i] }
        }
        return frame
    }

    public var frames: some Sequence<AudioFrame> {
        (0..<frameCount).lazy.map { frame(at: $0) }
    }
}
