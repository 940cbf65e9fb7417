public import EarshotAudio

/// The way from the speaker back into the microphone, for a replay that should hear the
/// assistant's own voice as a live microphone would: what the speaker played `delay` earlier,
/// scaled by `gain`, is added to each microphone frame.
public struct EchoPath: Sendable {
    public let gain: Float
    /// In samples; at least one frame, so a frame's echo is always of audio already played.
    public let delaySamples: Int
    /// The speaker's latest samples, a ring of at least `delaySamples`.
    private var history: [Float]
    /// Samples recorded so far: the end of the speaker's timeline.
    private var recorded = 0

    public init(gain: Double, delayMilliseconds: Int) {
        self.gain = Float(gain)
        delaySamples = max(AudioFrame.sampleCount, delayMilliseconds * AudioFrame.sampleRate / 1000)
        history = [Float](repeating: 0, count: delaySamples + AudioFrame.sampleCount)
    }

    /// Records the 10 ms the speaker played alongside the latest microphone frame (nil: silence).
    public mutating func record(_ played: AudioFrame?) {
        for position in 0..<AudioFrame.sampleCount {
            history[(recorded + position) % history.count] = played?.samples[position] ?? 0
        }
        recorded += AudioFrame.sampleCount
    }

    /// `frame` with the speaker's echo added (clipped to -1...1), assuming the speaker has been
    /// recorded up to the frame's start.
    public func mix(into frame: AudioFrame) -> AudioFrame {
        var mixed = frame
        let start = frame.index * AudioFrame.sampleCount - delaySamples
        for position in 0..<AudioFrame.sampleCount {
            let source = start + position
            guard source >= 0, source < recorded, source >= recorded - history.count else { continue }
            let sample = frame.samples[position] + gain * history[source % history.count]
            mixed.samples[position] = max(-1, min(1, sample))
        }
        return mixed
    }
}
