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
    public static let eagerness = make(
        ("listening", "eagerness"), \.listening.eagerness, flag: "--eagerness", reload: .live,
        "How soon a turn that sounded finished ends: \"low\", \"medium\" or \"high\"; high replies sooner but may cut in at a pause.")

    public static let transcriptionBackend = make(
        ("transcription", "backend"), \.transcription.backend, kind: .backend(.speechToText), flag: "--stt", reload: .restart,
        "embedded (pocketsphinx), none, or a Wyoming server: tcp://HOST:PORT or unix:///PATH.")
    public static let language = make(
        ("transcription", "language"), \.transcription.language, kind: .languageTag, flag: "--language", reload: .live,
        "The language spoken (BCP 47); a change applies from the next utterance.")

    public static let speechBackend = make(
        ("speech", "backend"), \.speech.backend, kind: .backend(.textToSpeech), flag: "--tts", reload: .restart,
        "embedded (flite, espeak-ng), none, or a Wyoming server: tcp://HOST:PORT or unix:///PATH.")
    public static let voice = make(
        ("speech", "voice"), \.speech.voice, kind: .text, flag: "--voice", reload: .live,
        "The voice replies are spoken in: breeze, cove, sky, juniper, ember, or one of your own (`earshot voices`).")
    public static let voicesDirectory = make(
        ("speech", "voices_dir"), \.speech.voicesDirectory, flag: "--voices-dir", reload: .restart,
        unset: "../share/earshot/voices beside the executable, or voices/ in the source checkout", example: "/usr/share/earshot/voices",
        "Directory of the bundled voices (your own live in $XDG_CONFIG_HOME/earshot/voices).")

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

    public static let socket = make(
        ("daemon", "socket"), \.daemon.socket, flag: "--socket", reload: .restart,
        unset: "$XDG_RUNTIME_DIR/earshot/earshot.sock", example: "/run/user/1000/earshot/earshot.sock",
        "The Unix socket front ends connect to.")
    public static let listen = make(
        ("daemon", "listen"), \.daemon.listen, flag: "--listen", reload: .restart,
        "Enter voice mode at once (hands-free), without waiting for a front end's `start`.")

    public static let debugTurns = make(
        ("privacy", "debug_turns"), \.privacy.debugTurns, kind: .turnCount, flag: "--debug-turns", reload: .restart,
        "Keep the microphone audio of the last N turns (Ogg Opus, with a JSON file of each turn's transcript and reply) in $XDG_STATE_HOME/earshot/recordings for bug reports; 0 writes no audio to disk. `earshot forget` deletes them.")

    /// Every key, in the order of the example file.
    public static let all: [SettingsKey] = [
        server, source, sink, echoCancellation, cues,
        vadThreshold, prefixPadding, minimumSpeech, endSilence, eagerness,
        transcriptionBackend, language,
        speechBackend, voice, voicesDirectory,
        replyTimeout, responder, responderTimeout,
        socket, listen,
        debugTurns,
    ]
}
