public import EarshotAudio

/// The detector's verdict on one 10 ms frame.
public struct VoiceActivity: Equatable, Sendable {
    /// The frame this verdict is about (it may lag the newest frame by the look-ahead).
    public var frameIndex: Int
    /// Speech probability, 0...1.
    public var probability: Float
    public var isSpeech: Bool

    public init(frameIndex: Int, probability: Float, isSpeech: Bool) {
        self.frameIndex = frameIndex
        self.probability = probability
        self.isSpeech = isSpeech
    }
}

/// A streaming, causal voice-activity detector: frames in, one verdict per frame out.
///
/// The verdict for frame `n` may use frames up to `n + lookaheadFrames` and no later ones,
/// so it is returned by the call that feeds frame `n + lookaheadFrames`.
public protocol VoiceActivityDetector {
    /// Frames of look-ahead, at most 3 (30 ms).
    var lookaheadFrames: Int { get }
    /// Feeds the next frame (indices must increase by one); returns the verdict for frame
    /// `frame.index - lookaheadFrames`, or nil while that frame does not exist yet.
    mutating func process(_ frame: borrowing AudioFrame) -> VoiceActivity?
    /// Forgets all history, as for a new stream.
    mutating func reset()
}

extension VoiceActivityDetector {
    /// Verdicts for the last `lookaheadFrames` frames of a stream, obtained by feeding silence
    /// after frame `lastIndex`.
    public mutating func finish(after lastIndex: Int) -> [VoiceActivity] {
        var out: [VoiceActivity] = []
        for k in 0..<lookaheadFrames {
            if let verdict = process(.silence(index: lastIndex + 1 + k)), verdict.frameIndex <= lastIndex {
                out.append(verdict)
            }
        }
        return out
    }
}
