public import EarshotAudio

/// Everything the configuration file can say, with the defaults `earshotd` uses when it says
/// nothing. One nested struct per section of the file (`[audio]`, `[listening]`, …).
public struct Settings: Equatable, Sendable {
    public var audio = Audio()
    public var listening = Listening()
    public var transcription = Transcription()
    public var speech = Speech()
    public var replies = Replies()
    public var assistant = Assistant()
    public var wake = Wake()
    public var daemon = Daemon()
    public var web = Web()
    public var privacy = Privacy()

    public init() {}

    /// The endpointer's settings, its word rule in the language spoken.
    public var endpointer: Endpointer.Configuration {
        var configuration = listening.endpointer
        configuration.language = transcription.language
        return configuration
    }

    /// The value of `key`, nil when it is an optional setting left unset.
    public func value(of key: SettingsKey) -> SettingsValue? {
        key.read(self)
    }

    /// Sets `key` to `value`, which must be of the key's kind (a flag for a flag, …); nil
    /// unsets an optional key.
    public mutating func set(_ key: SettingsKey, to value: SettingsValue?) {
        key.write(&self, value)
    }

    /// These settings with the command line's laid over them.
    public func applying(_ overrides: SettingsOverrides) -> Settings {
        var settings = self
        for (key, value) in overrides.values { settings.set(key, to: value) }
        return settings
    }

    /// The keys whose values differ between `earlier` and these settings, in the file's order.
    public func changedKeys(since earlier: Settings) -> [SettingsKey] {
        SettingsKey.all.filter { value(of: $0) != earlier.value(of: $0) }
    }
}

// The sections, in the order of the file.
extension Settings {
    /// `[audio]`: the sound server and its devices.
    public struct Audio: Equatable, Sendable {
        /// The sound server (`unix:/path` or a host); nil: libpulse's own choice (`PULSE_SERVER`).
        public var server: String?
        /// The source (microphone) to record from; nil: follow the server's default.
        public var source: String?
        /// The sink (speaker) to play to; nil: follow the server's default.
        public var sink: String?
        /// Capture and play through PulseAudio's echo canceller (module-echo-cancel, webrtc).
        public var echoCancellation = false
        /// Play a short cue when voice mode starts and ends.
        public var cues = false

        public init() {}
    }

    /// `[listening]`: the voice-activity detector and the endpointer.
    public struct Listening: Equatable, Sendable {
        /// Speech probability at or above which a frame counts as speech.
        public var vadThreshold = Double(SpectralVAD.Configuration().threshold)
        public var prefixPaddingMilliseconds = Endpointer.Configuration().prefixPaddingMilliseconds
        public var minimumSpeechMilliseconds = Endpointer.Configuration().minimumSpeechMilliseconds
        public var endOfTurnSilenceMilliseconds = Endpointer.Configuration().endOfTurnSilenceMilliseconds
        public var finishedTurnSilenceMilliseconds = Endpointer.Configuration().finishedTurnSilenceMilliseconds
        public var maximumEndSilenceMilliseconds = Endpointer.Configuration().maximumEndSilenceMilliseconds
        public var eagerness = Endpointer.Configuration().eagerness

        public init() {}

        public var endpointer: Endpointer.Configuration {
            Endpointer.Configuration(
                prefixPaddingMilliseconds: prefixPaddingMilliseconds,
                minimumSpeechMilliseconds: minimumSpeechMilliseconds,
                endOfTurnSilenceMilliseconds: endOfTurnSilenceMilliseconds,
                finishedTurnSilenceMilliseconds: finishedTurnSilenceMilliseconds,
                maximumEndSilenceMilliseconds: maximumEndSilenceMilliseconds,
                eagerness: eagerness
            )
        }

        public var detector: SpectralVAD.Configuration {
            SpectralVAD.Configuration(threshold: Float(vadThreshold))
        }
    }

    /// `[transcription]`: who turns speech into text, and in which language.
    public struct Transcription: Equatable, Sendable {
        /// `embedded` (pocketsphinx), `none`, a Wyoming server (`tcp://HOST:PORT`, `unix:///PATH`)
        /// or an OpenAI-compatible one (`openai+http://HOST:PORT/v1`).
        public var backend = "embedded"
        /// The language spoken (BCP 47).
        public var language = "en-US"
        /// The model a server backend is asked for; nil: the server's default.
        public var model: String?
        /// The file holding an OpenAI-compatible server's API key (mode 0600); nil: `OPENAI_API_KEY`.
        public var apiKeyFile: String?
        /// Seconds without an utterance after which the embedded model is released; 0: never.
        public var unloadAfterSeconds = 300.0

        public init() {}
    }

    /// `[speech]`: who speaks replies, and in which voice.
    public struct Speech: Equatable, Sendable {
        /// `embedded` (flite, espeak-ng), `none`, a Wyoming server or an OpenAI-compatible one.
        public var backend = "embedded"
        /// The voice replies are spoken in, by id or name.
        public var voice = "breeze"
        /// Where the bundled voices are; nil: next to the executable, or the source checkout.
        public var voicesDirectory: String?
        /// The file holding an OpenAI-compatible server's API key (mode 0600); nil: `OPENAI_API_KEY`.
        public var apiKeyFile: String?
        /// Seconds without speaking after which the embedded engines are released; 0: never.
        public var unloadAfterSeconds = 300.0

        public init() {}
    }

    /// `[replies]`: how long a reply may take, and the responder command that gives one.
    public struct Replies: Equatable, Sendable {
        /// Seconds `thinking` waits for a reply before returning to listening with an error.
        public var timeoutSeconds = 15.0
        /// A command that answers each final transcript (run with /bin/sh); nil: front ends answer.
        public var responder: String?
        /// Seconds the responder may stay silent before it is stopped.
        public var responderTimeoutSeconds = 30.0

        public init() {}
    }

    /// `[assistant]`: the built-in assistant on an OpenAI-compatible chat server.
    public struct Assistant: Equatable, Sendable {
        /// `openai+http://HOST:PORT/v1` or `openai+https://HOST/v1`; nil: no assistant.
        public var server: String?
        /// The model asked for; nil: ``Settings/Assistant/defaultModel``.
        public var model: String?
        /// The system prompt, inline.
        public var instructions: String?
        /// A file holding the system prompt (used when `instructions` is not set).
        public var instructionsFile: String?
        /// Exchanges remembered and sent with each question; 0: none.
        public var maximumTurns = 20
        /// The file holding the server's API key (mode 0600); nil: `OPENAI_API_KEY`.
        public var apiKeyFile: String?

        /// The model asked for when none is set: OpenAI's small one (local servers such as
        /// llama-server answer with whichever model they loaded).
        public static let defaultModel = "gpt-4o-mini"

        public init() {}
    }

    /// `[wake]`: the phrase voice mode waits for before it takes turns.
    public struct Wake: Equatable, Sendable {
        /// The wake phrase ("hey computer"); nil: voice mode takes every utterance.
        public var phrase: String?
        /// A directory of enrolled takes of the phrase (`earshot wake enroll`): heard by them
        /// instead of pocketsphinx; `phrase`, if set, names them.
        public var templates: String?
        /// pocketsphinx's `kws_threshold` for the phrase: smaller finds more, and wakes falsely more.
        public var kwsThreshold = WakeSettings.defaultThreshold
        /// Seconds without speech after which the conversation ends and the phrase is needed again.
        public var idleAfterSeconds = WakeSettings.defaultIdleAfter

        public init() {}
    }

    /// `[daemon]`: how `earshotd` itself runs.
    public struct Daemon: Equatable, Sendable {
        /// The socket path; nil: `$XDG_RUNTIME_DIR/earshot/earshot.sock`.
        public var socket: String?
        /// Enter voice mode at once (hands-free), without waiting for a front end's `start`.
        public var listen = false

        public init() {}
    }

    /// `[web]`: the front door for browsers (off unless `listen` is set).
    public struct Web: Equatable, Sendable {
        /// A loopback address and port, `127.0.0.1:8765`; nil: no web front door.
        public var listen: String?
        /// Origins besides the daemon's own that may open the WebSocket, separated by spaces.
        public var allowedOrigins: String?

        public init() {}
    }

    /// `[privacy]`: what the daemon may keep of what the microphone heard.
    public struct Privacy: Equatable, Sendable {
        /// How many of the latest turns' audio (with transcript and reply) to keep on disk for
        /// bug reports; 0 keeps none, and no audio is written at all.
        public var debugTurns = 0

        public init() {}
    }
}

/// The settings given on `earshotd`'s command line: they win over the file, at start and at
/// every reload.
public struct SettingsOverrides: Equatable, Sendable {
    private var byKey: [SettingsKey: SettingsValue] = [:]

    public init() {}

    public subscript(key: SettingsKey) -> SettingsValue? {
        get { byKey[key] }
        set { byKey[key] = newValue }
    }

    /// The keys overridden, in the file's order.
    public var keys: [SettingsKey] { SettingsKey.all.filter { byKey[$0] != nil } }

    /// The overrides, in the file's order.
    public var values: [(key: SettingsKey, value: SettingsValue)] {
        keys.compactMap { key in byKey[key].map { (key, $0) } }
    }

    public var isEmpty: Bool { byKey.isEmpty }
}
