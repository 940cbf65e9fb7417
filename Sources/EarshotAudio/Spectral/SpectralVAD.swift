#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming voice-activity detector built from signal properties: per-band noise tracking,
/// Sohn's likelihood ratio, harmonicity, spectral shape and syllabic modulation, combined by a
/// small fitted logistic network (`SpectralVADModel`, see `Scripts/fit_vad.py`) and smoothed by a
/// two-state hidden Markov model, which plays the part of a hangover. No model files; no
/// allocation per frame; about 6 µs per 10 ms frame.
///
/// Many-talker babble counts as noise, not speech. Knocks, clicks and beeps are not speech either,
/// but a loud one may still be called speech for a few frames.
///
/// It looks 3 frames (30 ms) ahead: the verdict for frame `n` arrives with frame `n + 3`.
/// `probability` is the smoothed speech posterior, and `isSpeech` is it reaching the threshold.
/// A frame whose index does not follow the previous one starts a new stream, as after `reset()`.
public struct SpectralVAD: VoiceActivityDetector {
    public private(set) var configuration: Configuration
    public var lookaheadFrames: Int { Self.lookahead }

    static let lookahead = 3
    /// Capacity of the per-frame input vector, which lives on the stack.
    private static let maximumInputs = 32
    private var extractor: SpectralFeatureExtractor
    /// Features of the newest `lookahead + 1` windows; slot `r & 3` holds the window ending at
    /// the r-th frame since the reset.
    private var recent: [4 of SpectralFeatures] = .init(repeating: SpectralFeatures())
    private var framesSinceReset = 0
    private var nextIndex: Int?
    private var posterior: Float = 0.5
    private let priorLogOdds: Float

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        extractor = SpectralFeatureExtractor(tuning: configuration.extractorTuning)
        let prior = SpectralVADModel.trainingPrior
        priorLogOdds = log(prior / (1 - prior))
        precondition(SpectralVADModel.inputs.count <= Self.maximumInputs, "SpectralVADModel has too many inputs")
    }

    /// Decides from the next verdict on with `threshold` (the noise floor stays as it was made).
    public mutating func setThreshold(_ threshold: Float) {
        configuration.threshold = threshold
    }

    public mutating func reset() {
        extractor.reset()
        recent = .init(repeating: SpectralFeatures())
        framesSinceReset = 0
        nextIndex = nil
        posterior = 0.5
    }

    public mutating func process(_ frame: borrowing AudioFrame) -> VoiceActivity? {
        if let expected = nextIndex, expected != frame.index { reset() }
        nextIndex = frame.index + 1
        let row = framesSinceReset
        framesSinceReset += 1
        if let features = extractor.analyze(frame) {
            recent[row & 3] = features
            // The windows before the first full one borrow its features.
            if row == SpectralFeatureExtractor.warmUpFrames {
                for earlier in 0..<row { recent[earlier & 3] = features }
            }
        }
        guard row >= Self.lookahead else { return nil }
        let frameLogOdds = networkLogOdds(judging: row - Self.lookahead)
        posterior = Self.smooth(posterior, evidenceLogOdds: frameLogOdds - priorLogOdds)
        let centred = recent[(row - Self.lookahead + 1) & 3]
        return VoiceActivity(
            frameIndex: frame.index - Self.lookahead,
            probability: posterior,
            isSpeech: posterior >= configuration.threshold,
            cues: SpeechCues(periodicity: centred[.periodicity], pitchHz: centred[.pitch], levelDB: centred[.level])
        )
    }

    /// Frame-level speech log-odds from the network, for the frame `judged` rows after the reset.
    /// Mutating though it changes nothing: called on a copy, the whole detector was copied per frame.
    private mutating func networkLogOdds(judging judged: Int) -> Float {
        let model = SpectralVADModel.self
        let count = model.inputs.count
        // The windows are read in place, none copied out of `recent`.
        let windows = recent.span
        let centredRow = (judged + 1) & 3
        var sums = SpectralFeatures()
        for offset in 0...Self.lookahead {
            let row = (judged + offset) & 3
            for i in 0..<SpectralFeatures.count { sums.values[i] += windows[row].values[i] }
        }
        var inputs: [32 of Float] = .init(repeating: 0)
        for (i, (name, context)) in model.inputs.enumerated() {
            switch context {
            case .centred:
                inputs[i] = windows[centredRow][name]
            case .mean:
                inputs[i] = sums[name] / Float(Self.lookahead + 1)
            }
        }
        var output = model.outputBias
        for h in 0..<model.hiddenBias.count {
            var activation = model.hiddenBias[h]
            for i in 0..<count { activation += model.hiddenWeights[h * count + i] * inputs[i] }
            output += model.outputWeights[h] * tanh(activation)
        }
        return min(max(output, -30), 30)
    }

    /// One forward step of the two-state HMM: predict with the transition probabilities, then
    /// weigh in the frame's likelihood ratio.
    private static func smooth(_ previous: Float, evidenceLogOdds: Float) -> Float {
        let model = SpectralVADModel.self
        let predicted = previous * model.stayInSpeech + (1 - previous) * (1 - model.stayInNonSpeech)
        let weighted = predicted * exp(evidenceLogOdds)
        return weighted / (weighted + (1 - predicted))
    }
}

extension SpectralVAD {
    /// Decision settings of `SpectralVAD`. The defaults are the tuned operating point.
    public struct Configuration: Sendable, Equatable {
        /// Speech posterior at or above which a frame is called speech. Lower finds more quiet
        /// speech and lets more noise through.
        public var threshold: Float
        /// Band power never counts as lower than this (dBFS), so that near-silent input is not
        /// heard as speech against a digital-silence floor.
        public var noiseFloorDB: Float

        public init(threshold: Float = 0.5, noiseFloorDB: Float = -75) {
            self.threshold = threshold
            self.noiseFloorDB = noiseFloorDB
        }

        var extractorTuning: SpectralFeatureExtractor.Tuning {
            var tuning = SpectralFeatureExtractor.Tuning()
            tuning.noiseFloorDB = noiseFloorDB
            return tuning
        }
    }
}

extension SpectralVAD {
    /// Names of the columns of `featureTrace(for:)`.
    public static var featureNames: [String] { SpectralFeatures.names }

    /// The raw features behind the probabilities: row i describes the 32 ms window ending with
    /// frame i (the first rows, before the window is full, repeat the first full one). For
    /// refitting the model weights with `Scripts/fit_vad.py`, not for detection.
    public static func featureTrace(for clip: AudioClip, configuration: Configuration = .init()) -> [[Float]] {
        var extractor = SpectralFeatureExtractor(tuning: configuration.extractorTuning)
        var rows: [[Float]] = []
        rows.reserveCapacity(clip.frameCount)
        var pending = 0
        for frame in clip.frames {
            guard let features = extractor.analyze(frame) else { pending += 1; continue }
            rows += Array(repeating: features.array, count: pending + 1)
            pending = 0
        }
        return rows
    }
}
