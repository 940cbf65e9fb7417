public import EarshotEngines
public import EarshotSpeech
public import EarshotTurns

/// The `[wake]` section made ready: a phrase pocketsphinx can pronounce and its threshold, or
/// the person's enrolled takes of a phrase; and how long a conversation outlasts the last
/// speech. `earshot replay --wake` and `--wake-templates` make the same.
public struct WakeSettings: Sendable, Equatable {
    /// The keyphrase threshold when the file sets none.
    public static let defaultThreshold = KeyphraseSpotter.defaultThreshold
    /// Seconds of quiet that end a conversation when the file sets none.
    public static let defaultIdleAfter = 8.0

    /// How the phrase is heard.
    public enum Spotting: Sendable, Equatable {
        /// pocketsphinx's keyphrase search for the words, with its threshold.
        case keyphrase(PronouncedWakePhrase, threshold: Double)
        /// Enrolled takes of the phrase, matched by dynamic time warping.
        case templates(WakeTemplates, directory: String)
    }

    /// The phrase as `wake` events and `waiting_for` name it.
    public let phrase: String
    public let spotting: Spotting
    public let idleAfter: Double

    /// Checks the phrase's words against pocketsphinx's dictionary; throws, in words, for an
    /// empty phrase, one it cannot pronounce, or a threshold or idle time out of range.
    public init(phrase text: String, threshold: Double = defaultThreshold, idleAfter: Double = defaultIdleAfter) throws(SpeechError) {
        guard threshold > 0, threshold < 1 else {
            throw SpeechError(.misconfigured, "kws_threshold must be above 0 and below 1, such as 1e-35 (got \(threshold))")
        }
        try Self.check(idleAfter: idleAfter)
        let pronounced = try PronouncedWakePhrase(try WakePhrase(text))
        phrase = pronounced.phrase.description
        spotting = .keyphrase(pronounced, threshold: threshold)
        self.idleAfter = idleAfter
    }

    /// Reads the enrolled takes in `directory`; `phrase` names them in events (default: the
    /// directory's name). Throws, in words, for a directory that is missing, holds fewer than
    /// three takes or one that cannot be read.
    public init(templates directory: String, phrase: String? = nil, idleAfter: Double = defaultIdleAfter) throws(SpeechError) {
        try Self.check(idleAfter: idleAfter)
        let templates = try WakeTemplates.load(from: directory)
        let name = directory.split(separator: "/").last.map(String.init) ?? directory
        self.phrase = phrase.map { (try? WakePhrase($0))?.description ?? $0 } ?? name
        spotting = .templates(templates, directory: directory)
        self.idleAfter = idleAfter
    }

    /// The `[wake]` section's settings; nil when it sets neither a phrase nor templates.
    public init?(_ settings: Settings.Wake) throws(SpeechError) {
        if let directory = settings.templates {
            try self.init(templates: directory, phrase: settings.phrase, idleAfter: settings.idleAfterSeconds)
            return
        }
        guard let text = settings.phrase else { return nil }
        try self.init(phrase: text, threshold: settings.kwsThreshold, idleAfter: settings.idleAfterSeconds)
    }

    private static func check(idleAfter: Double) throws(SpeechError) {
        guard idleAfter > 0 else {
            throw SpeechError(.misconfigured, "idle_after must be a number of seconds above 0 (got \(idleAfter))")
        }
    }

    /// What the pipeline's gate takes.
    public var gate: WakeGate.Configuration {
        WakeGate.Configuration(phrase: phrase, idleAfter: idleAfter)
    }

    /// Loads the spotter: pocketsphinx's keyphrase search (about 0.2 s), or the template matcher.
    public func makeSpotter() throws(SpeechError) -> any WakePhraseSpotter {
        switch spotting {
        case .keyphrase(let pronounced, let threshold): try KeyphraseSpotter(pronounced, threshold: threshold)
        case .templates(let templates, _): templates.makeSpotter(phrase: phrase)
        }
    }
}
