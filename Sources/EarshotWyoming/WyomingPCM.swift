/// Signed 16-bit little-endian PCM, the only sample width this client sends or plays.
public enum WyomingPCM {
    public static func bytes(_ samples: [Int16]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            let bits = UInt16(bitPattern: sample)
            bytes[2 * index] = UInt8(truncatingIfNeeded: bits)
            bytes[2 * index + 1] = UInt8(truncatingIfNeeded: bits >> 8)
        }
        return bytes
    }

    /// Mono samples from 16-bit frames of `channels` channels, averaged; a trailing partial frame is ignored.
    public static func samples(_ bytes: some Collection<UInt8>, channels: Int) -> [Int16] {
        let bytes = Array(bytes)
        let channels = max(channels, 1)
        let frameCount = bytes.count / (2 * channels)
        var samples = [Int16](repeating: 0, count: frameCount)
        for frame in 0..<frameCount {
            var sum = 0
            for channel in 0..<channels {
                let offset = 2 * (frame * channels + channel)
                sum += Int(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
            }
            samples[frame] = Int16(sum / channels)
        }
        return samples
    }
}
