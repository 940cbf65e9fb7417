/// A text-to-speech backend.
///
/// `synthesize` starts at once and yields audio as it is made, so the first chunk can play
/// while the rest is synthesized. Ending iteration early (or cancelling the consuming task)
/// cancels the synthesis. Failures end the stream with a ``SpeechError``.
public protocol Synthesizer: Sendable {
    /// How status and logs name the backend, for example "flite + espeak-ng (embedded)".
    var name: String { get }

    func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error>
}

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
