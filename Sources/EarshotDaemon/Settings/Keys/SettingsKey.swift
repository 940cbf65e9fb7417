/// One key of the configuration file: where it sits, what it takes, the `earshotd` flag that
/// overrides it, and how the daemon takes a change to it on reload.
public struct SettingsKey: Hashable, Sendable, CustomStringConvertible {
    /// The section's name, without brackets: `listening`.
    public let section: String
    /// The key's name within its section: `end_silence_ms`.
    public let name: String
    public let kind: SettingsValueKind
    /// The `earshotd` option that overrides the file: `--end-silence-ms`.
    public let flag: String
    /// What it does, in one line, for the example file.
    public let summary: String
    /// What leaving it out means, for a key with no default value ("libpulse's own choice").
    public let unsetMeaning: String?
    /// A value to show, commented, in the example file when there is no default to show.
    public let example: SettingsValue?
    public let reload: SettingsReloadEffect
    let read: @Sendable (Settings) -> SettingsValue?
    /// Sets the value; nil unsets an optional key (and is ignored by the others).
    let write: @Sendable (inout Settings, SettingsValue?) -> Void

    /// `listening.end_silence_ms`: the key's path, as events and `status` name it.
    public var path: String { "\(section).\(name)" }

    /// `[listening] end_silence_ms`: how problems name it.
    public var description: String { "[\(section)] \(name)" }

    /// Its value when the file does not set it; nil for an optional key.
    public var defaultValue: SettingsValue? { read(Settings()) }

    public static func == (lhs: SettingsKey, rhs: SettingsKey) -> Bool { lhs.path == rhs.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// The key at `path` (`listening.end_silence_ms`), if there is one.
    public static func named(_ path: String) -> SettingsKey? {
        all.first { $0.path == path }
    }

    /// The sections, in the file's order.
    public static var sections: [String] {
        var seen: [String] = []
        for key in all where !seen.contains(key.section) { seen.append(key.section) }
        return seen
    }

    /// The keys of `section`, in the file's order.
    public static func keys(in section: String) -> [SettingsKey] {
        all.filter { $0.section == section }
    }
}

// MARK: - The keys

extension SettingsKey {
    public static let server = make(
        ("audio", "server"), \.audio.server, flag: "--server", reload: .restart,
        unset: "libpulse's own choice (PULSE_SERVER, then the session's server)", example: "unix:/run/user/1000/pulse/native",
        "The sound server to connect to.")
    public static let source = make(
        ("audio", "source"), \.audio.source, flag: "--source", reload: .live,
        unset: "follow the sound server's default source", example: "alsa_input.usb-mic.analog-stereo",
        "The source (microphone) to record from; `earshot devices` lists them.")
    public static let sink = make(
        ("audio", "sink"), \.audio.sink, flag: "--sink", reload: .live,
        unset: "follow the sound server's default sink", example: "alsa_output.pci-0000_00_1f.3.analog-stereo",
        "The sink (speaker) to play to.")
    public static let echoCancellation = make(
        ("audio", "echo_cancellation"), \.audio.echoCancellation, flag: "--echo-cancel", reload: .restart,
        "Remove the assistant's own voice from the microphone with PulseAudio's module-echo-cancel (for speakers, not headphones).")
    public static let cues = make(
        ("audio", "cues"), \.audio.cues, flag: "--cues", reload: .live,
        "Play a short cue when voice mode starts and ends.")

    public static let vadThreshold = make(
        ("listening", "vad_threshold"), \.listening.vadThreshold, kind: .probability, flag: "--vad-threshold", reload: .live,
        "Speech probability (0 to 1) at or above which a 10 ms frame counts as speech; lower hears quieter speech and more noise.")
    public static let prefixPadding = make(
        ("listening", "prefix_padding_ms"), \.listening.prefixPaddingMilliseconds, kind: .milliseconds,
        flag: "--prefix-padding-ms", reload: .live,
        "Audio before the speech onset that belongs to the utterance, in ms.")
    public static let minimumSpeech = make(
        ("listening", "min_speech_ms"), \.listening.minimumSpeechMilliseconds, kind: .milliseconds,
        flag: "--min-speech-ms", reload: .live,
        "Speech needed before an onset counts as an utterance, in ms; shorter bursts are ignored.")
    public static let endSilence = make(
        ("listening", "end_silence_ms"), \.listening.endOfTurnSilenceMilliseconds, kind: .milliseconds,
        flag: "--end-silence-ms", reload: .live,
        "Silence that ends the person's turn where nothing in how it ended is sure, in ms.")
    public static let finishedSilence = make(
        ("listening", "finished_silence_ms"), \.listening.finishedTurnSilenceMilliseconds, kind: .milliseconds,
        flag: "--finished-silence-ms", reload: .live,
        "Silence that ends a turn whose words and sound both say it is finished, in ms.")
    public static let maximumEndSilence = make(
        ("listening", "max_end_silence_ms"), \.listening.maximumEndSilenceMilliseconds, kind: .milliseconds,
        flag: "--max-end-silence-ms", reload: .live,
        "Silence that ends a turn whose words so far cannot end a sentence (\"set the oven to …\"), in ms: the longest a pause is waited for.")
    public static let eagerness = make(
        ("listening", "eagerness"), \.listening.eagerness, flag: "--eagerness", reload: .live,
        "How soon a turn that sounded finished ends: \"low\", \"medium\" or \"high\"; high replies sooner but may cut in at a pause.")

    public static let transcriptionBackend = make(
        ("transcription", "backend"), \.transcription.backend, kind: .backend(.speechToText), flag: "--stt", reload: .restart,
        "embedded (pocketsphinx), none, a Wyoming server (tcp://HOST:PORT or unix:///PATH) or an OpenAI-compatible one (openai+http://HOST:PORT/v1).")
    public static let language = make(
        ("transcription", "language"), \.transcription.language, kind: .languageTag, flag: "--language", reload: .live,
        "The language spoken (BCP 47); a change applies from the next utterance.")
    public static let transcriptionModel = make(
        ("transcription", "model"), \.transcription.model, flag: "--stt-model", reload: .restart,
        unset: "the server's default (whisper-1 for an OpenAI-compatible server)", example: "Systran/faster-whisper-small",
        "The model a transcription server is asked for.")
    public static let transcriptionKeyFile = make(
        ("transcription", "api_key_file"), \.transcription.apiKeyFile, flag: "--stt-api-key-file", reload: .restart,
        unset: "OPENAI_API_KEY from the environment, else no key (local servers need none)", example: "/home/me/.config/earshot/openai-key",
        "A file holding the OpenAI-compatible server's API key, readable by you alone (chmod 600).")
    public static let transcriptionUnloadAfter = make(
        ("transcription", "unload_after"), \.transcription.unloadAfterSeconds, kind: .idleSeconds,
        flag: "--stt-unload-after", reload: .restart,
        "Seconds without an utterance after which the embedded pocketsphinx model (about 65 MB) is freed; it loads again, in about 0.1 s, as the next utterance begins. 0 keeps it once loaded.")

    public static let speechBackend = make(
        ("speech", "backend"), \.speech.backend, kind: .backend(.textToSpeech), flag: "--tts", reload: .restart,
        "embedded (flite, espeak-ng), none, a Wyoming server (tcp://HOST:PORT or unix:///PATH) or an OpenAI-compatible one (openai+http://HOST:PORT/v1).")
    public static let voice = make(
        ("speech", "voice"), \.speech.voice, kind: .text, flag: "--voice", reload: .live,
        "The voice replies are spoken in: breeze, cove, sky, juniper, ember, or one of your own (`earshot voices`).")
    public static let voicesDirectory = make(
        ("speech", "voices_dir"), \.speech.voicesDirectory, flag: "--voices-dir", reload: .restart,
        unset: "../share/earshot/voices beside the executable, or voices/ in the source checkout", example: "/usr/share/earshot/voices",
        "Directory of the bundled voices (your own live in $XDG_CONFIG_HOME/earshot/voices).")
    public static let speechKeyFile = make(
        ("speech", "api_key_file"), \.speech.apiKeyFile, flag: "--tts-api-key-file", reload: .restart,
        unset: "OPENAI_API_KEY from the environment, else no key (local servers need none)", example: "/home/me/.config/earshot/openai-key",
        "A file holding the OpenAI-compatible server's API key, readable by you alone (chmod 600).")
    public static let speechUnloadAfter = make(
        ("speech", "unload_after"), \.speech.unloadAfterSeconds, kind: .idleSeconds, flag: "--tts-unload-after", reload: .restart,
        "Seconds without speaking after which the embedded flite voices and espeak-ng are freed; they load again, in milliseconds, for the next reply. 0 keeps them once loaded.")

    public static let replyTimeout = make(
        ("replies", "timeout"), \.replies.timeoutSeconds, kind: .seconds, flag: "--reply-timeout", reload: .live,
        "Seconds `thinking` waits for a reply before returning to listening with an error.")
    public static let responder = make(
        ("replies", "responder"), \.replies.responder, flag: "--responder", reload: .live,
        unset: "front ends answer with `speak`", example: "my-assistant --stdin",
        "A command that answers each final transcript: run with /bin/sh, the transcript on its stdin, each line it prints spoken.")
    public static let responderTimeout = make(
        ("replies", "responder_timeout"), \.replies.responderTimeoutSeconds, kind: .seconds,
        flag: "--responder-timeout", reload: .live,
        "Seconds the responder may stay silent before it is stopped.")

    public static let assistantServer = make(
        ("assistant", "server"), \.assistant.server, kind: .chatServer, flag: "--assistant", reload: .restart,
        unset: "no assistant (the responder command, or front ends, answer)", example: "openai+http://127.0.0.1:11434/v1",
        "An OpenAI-compatible chat server that answers each final transcript, spoken while it writes; it wins over [replies] responder.")
    public static let assistantModel = make(
        ("assistant", "model"), \.assistant.model, flag: "--assistant-model", reload: .restart,
        unset: "gpt-4o-mini", example: "llama3.2",
        "The model the chat server is asked for.")
    public static let assistantInstructions = make(
        ("assistant", "instructions"), \.assistant.instructions, flag: "--assistant-instructions", reload: .restart,
        unset: "a short prompt asking for brief spoken answers without markdown", example: "You are a kind kitchen helper. Answer in one or two sentences.",
        "The system prompt sent before the conversation.")
    public static let assistantInstructionsFile = make(
        ("assistant", "instructions_file"), \.assistant.instructionsFile, flag: "--assistant-instructions-file", reload: .restart,
        unset: "the instructions key, or the default prompt", example: "/home/me/.config/earshot/instructions.txt",
        "A file holding the system prompt, read at start (instructions, when set, win).")
    public static let assistantMaximumTurns = make(
        ("assistant", "max_turns"), \.assistant.maximumTurns, kind: .turnCount, flag: "--assistant-max-turns", reload: .restart,
        "Exchanges the assistant remembers, in memory only (of its replies, only what was heard); `dismiss` and `forget` clear them.")
    public static let assistantKeyFile = make(
        ("assistant", "api_key_file"), \.assistant.apiKeyFile, flag: "--assistant-api-key-file", reload: .restart,
        unset: "OPENAI_API_KEY from the environment, else no key (local servers need none)", example: "/home/me/.config/earshot/openai-key",
        "A file holding the chat server's API key, readable by you alone (chmod 600).")

    public static let socket = make(
        ("daemon", "socket"), \.daemon.socket, flag: "--socket", reload: .restart,
        unset: "$XDG_RUNTIME_DIR/earshot/earshot.sock", example: "/run/user/1000/earshot/earshot.sock",
        "The Unix socket front ends connect to.")
    public static let listen = make(
        ("daemon", "listen"), \.daemon.listen, flag: "--listen", reload: .restart,
        "Enter voice mode at once (hands-free), without waiting for a front end's `start`.")

    public static let webListen = make(
        ("web", "listen"), \.web.listen, kind: .loopbackAddress, flag: "--web", reload: .restart,
        unset: "no web front door", example: "127.0.0.1:8765",
        "Serve the voice-mode page and its WebSocket to browsers here (loopback only); `earshot open` opens it.")
    public static let webAllowedOrigins = make(
        ("web", "allowed_origins"), \.web.allowedOrigins, kind: .originList, flag: "--web-allowed-origins", reload: .restart,
        unset: "only the daemon's own page", example: "https://chat.example.com",
        "Other pages that may open the WebSocket (a chat app's), separated by spaces.")

    public static let wakePhrase = make(
        ("wake", "phrase"), \.wake.phrase, kind: .wakePhrase, flag: "--wake", reload: .live,
        unset: "no wake phrase: voice mode takes every utterance", example: "hey computer",
        "Voice mode waits for this phrase (English words pocketsphinx can pronounce), then holds a conversation until idle_after.")
    public static let wakeThreshold = make(
        ("wake", "kws_threshold"), \.wake.kwsThreshold, kind: .keyphraseThreshold, flag: "--wake-threshold", reload: .live,
        "pocketsphinx's keyphrase threshold for the phrase, above 0 and below 1: smaller hears it more often, and wakes falsely more.")
    public static let wakeTemplates = make(
        ("wake", "templates"), \.wake.templates, kind: .wakeTemplates, flag: "--wake-templates", reload: .live,
        unset: "no templates: the phrase is heard by pocketsphinx", example: "/home/me/.local/share/earshot/wake",
        "Enrolled takes of the phrase in your own voice, any language (`earshot wake enroll` writes them); heard instead of pocketsphinx, `phrase` naming them.")
    public static let wakeIdleAfter = make(
        ("wake", "idle_after"), \.wake.idleAfterSeconds, kind: .seconds, flag: "--wake-idle-after", reload: .live,
        "Seconds without speech after which the conversation ends and voice mode waits for the phrase again.")

    public static let debugTurns = make(
        ("privacy", "debug_turns"), \.privacy.debugTurns, kind: .turnCount, flag: "--debug-turns", reload: .restart,
        "Keep the microphone audio of the last N turns (Ogg Opus, with a JSON file of each turn's transcript and reply) in $XDG_STATE_HOME/earshot/recordings for bug reports; 0 writes no audio to disk. `earshot forget` deletes them.")

    /// Every key, in the order of the example file.
    public static let all: [SettingsKey] = [
        server, source, sink, echoCancellation, cues,
        vadThreshold, prefixPadding, minimumSpeech, endSilence, finishedSilence, maximumEndSilence, eagerness,
        transcriptionBackend, language, transcriptionModel, transcriptionKeyFile, transcriptionUnloadAfter,
        speechBackend, voice, voicesDirectory, speechKeyFile, speechUnloadAfter,
        replyTimeout, responder, responderTimeout,
        assistantServer, assistantModel, assistantInstructions, assistantInstructionsFile, assistantMaximumTurns, assistantKeyFile,
        wakePhrase, wakeThreshold, wakeTemplates, wakeIdleAfter,
        socket, listen,
        webListen, webAllowedOrigins,
        debugTurns,
    ]
}

// MARK: - Making a key

extension SettingsKey {
    /// A key backed by a string that always has a value.
    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, String> & Sendable, kind: SettingsValueKind,
        flag: String, reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .text($0[keyPath: keyPath]) },
            write: { settings, value in if case .text(let text) = value { settings[keyPath: keyPath] = text } }
        )
    }

    /// An optional string key: left out, it means `unset`.
    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, String?> & Sendable, kind: SettingsValueKind = .text,
        flag: String, reload: SettingsReloadEffect, unset: String, example: String, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: unset,
            example: .text(example), reload: reload,
            read: { $0[keyPath: keyPath].map(SettingsValue.text) },
            write: { settings, value in
                switch value {
                case .text(let text): settings[keyPath: keyPath] = text
                case nil: settings[keyPath: keyPath] = nil
                default: break
                }
            }
        )
    }

    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Bool> & Sendable, flag: String,
        reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: .flag, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .flag($0[keyPath: keyPath]) },
            write: { settings, value in if case .flag(let flag) = value { settings[keyPath: keyPath] = flag } }
        )
    }

    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Int> & Sendable, kind: SettingsValueKind,
        flag: String, reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .integer($0[keyPath: keyPath]) },
            write: { settings, value in if case .integer(let integer) = value { settings[keyPath: keyPath] = integer } }
        )
    }

    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Double> & Sendable, kind: SettingsValueKind,
        flag: String, reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .number($0[keyPath: keyPath]) },
            write: { settings, value in
                switch value {
                case .number(let number): settings[keyPath: keyPath] = number
                case .integer(let integer): settings[keyPath: keyPath] = Double(integer)
                default: break
                }
            }
        )
    }

    /// A key that takes one of an enumeration's words.
    static func make<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Choice> & Sendable, flag: String,
        reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey where Choice.RawValue == String {
        SettingsKey(
            section: path.0, name: path.1, kind: .choice(Choice.allCases.map(\.rawValue)), flag: flag, summary: summary,
            unsetMeaning: nil, example: nil, reload: reload,
            read: { .text($0[keyPath: keyPath].rawValue) },
            write: { settings, value in
                if case .text(let word) = value, let choice = Choice(rawValue: word) { settings[keyPath: keyPath] = choice }
            }
        )
    }
}
