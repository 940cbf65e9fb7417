import Foundation
public import EarshotAudio

/// A streaming voice-activity detector built from signal properties: per-band noise tracking,
/// Sohn's likelihood ratio, harmonicity, spectral shape and syllabic modulation, combined by a
/// small logistic model and smoothed with a hangover. No model files, no allocation per frame.
///
/// It looks 3 frames (30 ms) ahead: the verdict for frame `n` arrives with frame `n + 3`.
public struct SpectralVAD: VoiceActivityDetector {
    public let configuration: Configuration
    public var lookaheadFrames: Int { Self.lookahead }

    static let lookahead = 3
    private var extractor: SpectralFeatureExtractor
    /// Features of the newest `lookahead + 1` windows; slot `i % count` holds the window ending at frame i.
    private var recent: [4 of SpectralFeatures] = .init(repeating: SpectralFeatures())
    private var nextIndex: Int?
    private var framesSinceReset = 0
    private var hangoverLeft = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        extractor = SpectralFeatureExtractor(tuning: configuration.extractorTuning)
    }

    public mutating func reset() {
        extractor.reset()
        recent = .init(repeating: SpectralFeatures())
        nextIndex = nil
        framesSinceReset = 0
        hangoverLeft = 0
    }

    public mutating func process(_ frame: borrowing AudioFrame) -> VoiceActivity? {
        let index = frame.index
        if let expected = nextIndex, expected != index { reset() }
        nextIndex = index + 1
        framesSinceReset += 1
        recent[index & 3] = extractor.analyze(frame)
        guard framesSinceReset > Self.lookahead else { return nil }
        let target = index - Self.lookahead
        let probability = speechProbability(for: target)
        let isSpeech: Bool
        if probability >= configuration.threshold {
            hangoverLeft = configuration.hangoverFrames
            isSpeech = true
        } else if hangoverLeft > 0 {
            hangoverLeft -= 1
            isSpeech = true
        } else {
            isSpeech = false
        }
        return VoiceActivity(frameIndex: target, probability: probability, isSpeech: isSpeech)
    }

    /// Features of the window that ends at `frame`, which must be one of the newest four.
    private func features(endingAt frame: Int) -> SpectralFeatures { recent[frame & 3] }

    private func speechProbability(for frame: Int) -> Float {
        let centred = features(endingAt: frame + 2)
        let z = 3 * (centred.likelihood - 1.2)
        return 1 / (1 + exp(-z))
    }
}
