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
