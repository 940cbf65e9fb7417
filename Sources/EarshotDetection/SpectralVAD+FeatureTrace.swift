public import EarshotAudio

extension SpectralVAD {
    /// Names of the columns of `featureTrace(for:)`.
    public static var featureNames: [String] { SpectralFeatures.names }

    /// The raw features behind the probabilities: row i describes the 32 ms window ending with
    /// frame i. For refitting the model weights (see `Scripts/fit_vad.py`), not for detection.
    public static func featureTrace(for clip: AudioClip, configuration: Configuration = .init()) -> [[Float]] {
        var extractor = SpectralFeatureExtractor(tuning: configuration.extractorTuning)
        return clip.frames.map { extractor.analyze($0).values }
    }
}
