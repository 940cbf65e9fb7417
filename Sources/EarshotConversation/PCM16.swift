public import EarshotAudio

/// Converts the pipeline's float frames into the signed 16-bit samples transcribers take.
public enum PCM16 {
    public static func samples(of frames: [AudioFrame]) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(frames.count * AudioFrame.sampleCount)
        for frame in frames { append(frame, to: &samples) }
        return samples
    }

    public static func samples(of frame: borrowing AudioFrame) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(AudioFrame.sampleCount)
        append(frame, to: &samples)
        return samples
    }

    private static func append(_ frame: borrowing AudioFrame, to samples: inout [Int16]) {
        for index in 0..<AudioFrame.sampleCount {
            let scaled = (frame.samples[index] * 32767).rounded()
            samples.append(Int16(max(-32768, min(32767, scaled))))
        }
    }

    /// Float samples in -1...1, as the player takes them.
    public static func floats(of samples: [Int16]) -> [Float] {
        samples.map { Float($0) / 32768 }
    }
}
