/// Ten milliseconds of 16 kHz mono audio: the unit every stage of the pipeline consumes.
///
/// The samples live inline, so frames are passed and stored without touching the heap.
public struct AudioFrame: Sendable {
    public static let sampleRate = 16_000
    public static let sampleCount = 160
    public static let duration: Double = 0.01

    /// Position of this frame in its stream; frame `i` covers `[i * 10 ms, (i + 1) * 10 ms)`.
    public var index: Int
    /// Samples scaled to -1...1.
    public var samples: [160 of Float]

    public init(index: Int, samples: [160 of Float]) {
        self.index = index
        self.samples = samples
    }

    public static func silence(index: Int) -> AudioFrame {
        AudioFrame(index: index, samples: .init(repeating: 0))
    }

    /// Start of the frame in seconds of stream time.
    public var startTime: Double { Double(index) * Self.duration }
}

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
