public import EarshotEngines
public import EarshotSpeech
public import EarshotTurns

/// The `[wake]` section made ready: a phrase pocketsphinx can pronounce, its threshold, and
/// how long a conversation outlasts the last speech. `earshot replay --wake` makes the same.
public struct WakeSettings: Sendable, Equatable {
    /// The keyphrase threshold when the file sets none.
    public static let defaultThreshold = KeyphraseSpotter.defaultThreshold
    /// Seconds of quiet that end a conversation when the file sets none.
    public static let defaultIdleAfter = 8.0

    public let phrase: PronouncedWakePhrase
    public let threshold: Double
    public let idleAfter: Double

    /// Checks the phrase's words against pocketsphinx's dictionary; throws, in words, for an
    /// empty phrase, one it cannot pronounce, or a threshold or idle time out of range.
    public init(phrase text: String, threshold: Double = defaultThreshold, idleAfter: Double = defaultIdleAfter) throws(SpeechError) {
        guard threshold > 0, threshold < 1 else {
            throw SpeechError(.misconfigured, "kws_threshold must be above 0 and below 1, such as 1e-35 (got \(threshold))")
        }
        guard idleAfter > 0 else {
            throw SpeechError(.misconfigured, "idle_after must be a number of seconds above 0 (got \(idleAfter))")
        }
        phrase = try PronouncedWakePhrase(try WakePhrase(text))
        self.threshold = threshold
        self.idleAfter = idleAfter
    }

    /// The `[wake]` section's settings; nil when it sets no phrase.
    public init?(_ settings: Settings.Wake) throws(SpeechError) {
        guard let text = settings.phrase else { return nil }
        try self.init(phrase: text, threshold: settings.kwsThreshold, idleAfter: settings.idleAfterSeconds)
    }

    /// What the pipeline's gate takes.
    public var gate: WakeGate.Configuration {
        WakeGate.Configuration(phrase: phrase.phrase.description, idleAfter: idleAfter)
    }

    /// Loads pocketsphinx's keyphrase spotter for the phrase (about 0.2 s).
    public func makeSpotter() throws(SpeechError) -> KeyphraseSpotter {
        try KeyphraseSpotter(phrase, threshold: threshold)
    }
}
