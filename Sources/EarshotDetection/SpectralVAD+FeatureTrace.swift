public import EarshotAudio

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
