public import EarshotDetection

extension Settings {
    /// `[listening]`: the voice-activity detector and the endpointer.
    public struct Listening: Equatable, Sendable {
        /// Speech probability at or above which a frame counts as speech.
        public var vadThreshold = Double(SpectralVAD.Configuration().threshold)
        public var prefixPaddingMilliseconds = Endpointer.Configuration().prefixPaddingMilliseconds
        public var minimumSpeechMilliseconds = Endpointer.Configuration().minimumSpeechMilliseconds
        public var endOfTurnSilenceMilliseconds = Endpointer.Configuration().endOfTurnSilenceMilliseconds
        public var eagerness = Endpointer.Configuration().eagerness

        public init() {}

        public var endpointer: Endpointer.Configuration {
            Endpointer.Configuration(
                prefixPaddingMilliseconds: prefixPaddingMilliseconds,
                minimumSpeechMilliseconds: minimumSpeechMilliseconds,
                endOfTurnSilenceMilliseconds: endOfTurnSilenceMilliseconds,
                eagerness: eagerness
            )
        }

        public var detector: SpectralVAD.Configuration {
            SpectralVAD.Configuration(threshold: Float(vadThreshold))
        }
    }
}
