extension SpectralVAD {
    /// Decision settings of `SpectralVAD`. The defaults are the tuned operating point.
    public struct Configuration: Sendable, Equatable {
        /// Probability at or above which a frame starts or continues speech.
        public var threshold: Float
        /// Frames that stay speech after the probability falls below `threshold`, so that the short
        /// pauses inside an utterance are not cut out.
        public var hangoverFrames: Int
        /// Noise power never drops below this level (dBFS), so that near-silent input is not
        /// heard as speech against a digital-silence floor.
        public var noiseFloorDB: Float

        public init(threshold: Float = 0.5, hangoverFrames: Int = 20, noiseFloorDB: Float = -75) {
            self.threshold = threshold
            self.hangoverFrames = hangoverFrames
            self.noiseFloorDB = noiseFloorDB
        }

        var extractorTuning: SpectralFeatureExtractor.Tuning {
            var tuning = SpectralFeatureExtractor.Tuning()
            tuning.noiseFloorDB = noiseFloorDB
            return tuning
        }
    }
}
