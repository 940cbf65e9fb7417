/// A piece of synthesized speech: mono signed 16-bit samples at `sampleRate`.
public struct SpeechChunk: Equatable, Sendable {
    public var sampleRate: Int
    public var samples: [Int16]

    public init(sampleRate: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.samples = samples
    }

    /// Length in seconds.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
}
