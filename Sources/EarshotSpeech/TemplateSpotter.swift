public import EarshotAudio

/// Spots the wake phrase by the person's own enrolled takes of it (``PhraseTemplateMatcher``):
/// any language, any voice, no model. It decides as the audio comes, so the closing look at a
/// stretch adds nothing. Not thread-safe: use it from one queue.
public final class TemplateSpotter: WakePhraseSpotter {
    public let phrase: String
    private var matcher: PhraseTemplateMatcher
    /// Samples of a frame not yet complete, and how many.
    private var pending: [160 of Float] = .init(repeating: 0)
    private var pendingCount = 0
    private var inStretch = false

    /// - Parameters:
    ///   - phrase: the label the `wake` event carries.
    ///   - takes: the enrolled takes, 16 kHz, trimmed to the phrase.
    ///   - threshold, backgroundWeight: see ``PhraseTemplateMatcher``; a nil threshold follows the takes' spread.
    public init(
        phrase: String, takes: [[Float]], threshold: Float? = nil,
        backgroundWeight: Float = PhraseTemplateMatcher.defaultBackgroundWeight
    ) {
        self.phrase = phrase
        matcher = PhraseTemplateMatcher(takes: takes, threshold: threshold, backgroundWeight: backgroundWeight)
    }

    /// The lowest score the takes gave the audio since the stretch began (``PhraseTemplateMatcher``).
    public var closest: Float { matcher.closest }

    /// The score under which it hears the phrase.
    public var threshold: Float { matcher.threshold }

    public func beginSpeech() throws(SpeechError) {
        matcher.begin()
        pendingCount = 0
        inStretch = true
    }

    public func hears(_ samples: [Int16]) throws(SpeechError) -> Bool {
        guard inStretch else { return false }
        for sample in samples {
            pending[pendingCount] = Float(sample) / 32_768
            pendingCount += 1
            guard pendingCount == AudioFrame.sampleCount else { continue }
            pendingCount = 0
            if matcher.hears(pending) {
                endSpeech()
                return true
            }
        }
        return false
    }

    public func endSpeech() {
        inStretch = false
        pendingCount = 0
    }

    public func closeSpeech() throws(SpeechError) -> Bool {
        endSpeech()
        return false
    }
}
