/// One of the voice UI's named voices (Breeze, Cove, Sky, Juniper, Ember, or a user's own), with
/// what each synthesis engine needs to speak in it.
public struct Voice: Equatable, Sendable {
    /// The file name without extension, lower case: what `set-voice` takes.
    public var id: String
    /// What the voice UI shows.
    public var displayName: String
    /// One line saying what the voice sounds like.
    public var summary: String
    /// BCP 47 tag, for example "en-US".
    public var language: String
    public var flite: Flite?
    public var espeak: Espeak?
    public var wyoming: Wyoming?
    public var openAI: OpenAI?

    public init(
        id: String, displayName: String, summary: String, language: String,
        flite: Flite? = nil, espeak: Espeak? = nil, wyoming: Wyoming? = nil, openAI: OpenAI? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.summary = summary
        self.language = language
        self.flite = flite
        self.espeak = espeak
        self.wyoming = wyoming
        self.openAI = openAI
    }

    /// flite settings (English only).
    public struct Flite: Equatable, Sendable {
        /// A built-in flite voice: kal, kal16, awb, rms or slt.
        public var voice: String
        /// Above 1 speaks slower.
        public var durationStretch: Double
        /// Mean pitch in Hz.
        public var pitchHz: Double

        public init(voice: String, durationStretch: Double = 1, pitchHz: Double = 100) {
            self.voice = voice
            self.durationStretch = durationStretch
            self.pitchHz = pitchHz
        }
    }

    /// espeak-ng settings.
    public struct Espeak: Equatable, Sendable {
        /// An espeak-ng voice name with optional variant, for example "en-us+f2".
        public var voice: String
        /// Words per minute (80...450).
        public var rate: Int
        /// 0...100, 50 is the voice's normal pitch.
        public var pitch: Int

        public init(voice: String, rate: Int = 175, pitch: Int = 50) {
            self.voice = voice
            self.rate = rate
            self.pitch = pitch
        }
    }

    /// What to ask a Wyoming TTS server for.
    public struct Wyoming: Equatable, Sendable {
        public var voice: String
        public var speaker: String?

        public init(voice: String, speaker: String? = nil) {
            self.voice = voice
            self.speaker = speaker
        }
    }

    /// What to ask an OpenAI-compatible speech server for (`POST audio/speech`).
    public struct OpenAI: Equatable, Sendable {
        /// The server's voice: OpenAI's `alloy`, `nova`, …, or a server's own (Kokoro's `af_heart`).
        public var voice: String
        public var model: String
        /// The rate of the server's `pcm` audio: 24 kHz at OpenAI, Kokoro-FastAPI and speaches.
        public var sampleRate: Int

        public static let defaultModel = "tts-1"
        public static let defaultSampleRate = 24_000

        public init(voice: String, model: String = defaultModel, sampleRate: Int = defaultSampleRate) {
            self.voice = voice
            self.model = model
            self.sampleRate = sampleRate
        }
    }

    /// Whether `language` is English, which the embedded backend speaks with flite.
    public var isEnglish: Bool { language.lowercased().hasPrefix("en") }
}

/// Language tags as the voices and the configuration file give them (BCP 47, checked loosely).
public enum LanguageTag {
    /// A 2–3 letter language, then 1–8 character alphanumeric subtags: `en`, `en-US`, `pt-BR`.
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
