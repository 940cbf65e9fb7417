import ArgumentParser
import CMalloc
import EarshotAudio
import EarshotDaemon
import EarshotEngines
import EarshotProtocol
import Logging

@main
struct EarshotDaemonMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "earshotd",
        abstract: "Earshot's daemon: owns the microphone and speaker and serves voice front ends.",
        discussion: """
            Captures through libpulse (PulseAudio or PipeWire), runs the listening pipeline, and \
            serves front ends on a Unix socket (JSON lines; see PROTOCOL.md). Stops cleanly on \
            SIGTERM or SIGINT; reads its configuration file again on SIGHUP (`earshot config \
            example` shows every key). Drive it with `earshot status`, `earshot start`, `earshot watch`.
            """
    )

    @Option(help: "The configuration file (default: $XDG_CONFIG_HOME/earshot/config.toml; when absent, the defaults). The options below override it; SIGHUP reads it again.")
    var config: String?

    @Option(help: "Socket path (default: $XDG_RUNTIME_DIR/earshot/earshot.sock).")
    var socket: String?

    @Option(help: "Sound server, e.g. unix:/run/user/1000/pulse/native (default: libpulse's own choice).")
    var server: String?

    @Option(help: "Source (microphone) to record from (default: follow the server's default).")
    var source: String?

    @Option(help: "Sink (speaker) to play to (default: follow the server's default).")
    var sink: String?

    @Option(help: "Transcription: embedded (pocketsphinx), none, a Wyoming server (tcp://HOST:PORT, unix:///PATH) or an OpenAI-compatible one (openai+http://HOST:PORT/v1) (default: embedded).")
    var stt: String?

    @Option(help: "The model a transcription server is asked for (default: the server's; whisper-1 for OpenAI-compatible servers).")
    var sttModel: String?

    @Option(help: "A file (mode 0600) holding the transcription server's OpenAI API key (default: OPENAI_API_KEY).")
    var sttApiKeyFile: String?

    @Option(help: "A file (mode 0600) holding the speech server's OpenAI API key (default: OPENAI_API_KEY).")
    var ttsApiKeyFile: String?

    @Option(help: "Language of the speech (BCP 47) (default: en-US).")
    var language: String?

    @Option(help: "Seconds without an utterance after which the embedded pocketsphinx model is freed; 0 keeps it once loaded (default: 300).")
    var sttUnloadAfter: Double?

    @Option(help: "Seconds `thinking` waits for a reply before returning to listening with an error (default: 15).")
    var replyTimeout: Double?

    @Option(help: "A command that answers each final transcript (run with /bin/sh; the transcript on its stdin; each line it prints is spoken as it arrives).")
    var responder: String?

    @Option(help: "Seconds the responder may stay silent before it is stopped (default: 30).")
    var responderTimeout: Double?

    @Option(help: "An OpenAI-compatible chat server that answers each final transcript, spoken while it writes: openai+http://HOST:PORT/v1 (Ollama: openai+http://127.0.0.1:11434/v1); wins over --responder (default: none).")
    var assistant: String?

    @Option(help: "The model the assistant's chat server is asked for (default: gpt-4o-mini).")
    var assistantModel: String?

    @Option(help: "The assistant's system prompt (default: brief spoken answers without markdown).")
    var assistantInstructions: String?

    @Option(help: "A file holding the assistant's system prompt (--assistant-instructions wins).")
    var assistantInstructionsFile: String?

    @Option(help: "Exchanges the assistant remembers, 0 to 50, in memory only (default: 20).")
    var assistantMaxTurns: Int?

    @Option(help: "A file (mode 0600) holding the chat server's OpenAI API key (default: OPENAI_API_KEY).")
    var assistantApiKeyFile: String?

    @Option(help: "Speech: embedded (flite, espeak-ng), none, a Wyoming server (tcp://HOST:PORT, unix:///PATH) or an OpenAI-compatible one (openai+http://HOST:PORT/v1) (default: embedded).")
    var tts: String?

    @Option(help: "The voice replies are spoken in: breeze, cove, sky, juniper, ember, or one of your own (default: breeze).")
    var voice: String?

    @Option(help: "Directory of the bundled voices (default: next to the executable, or the source checkout).")
    var voicesDir: String?

    @Option(help: "Seconds without speaking after which the embedded flite voices and espeak-ng are freed; 0 keeps them once loaded (default: 300).")
    var ttsUnloadAfter: Double?

    @OptionGroup var endpointing: EndpointingOptions

    @Option(help: "Speech probability at or above which a frame counts as speech, 0 to 1 (default: the tuned 0.5).")
    var vadThreshold: Float?

    @Flag(inversion: .prefixedNo, help: "Enter voice mode at once (hands-free), without waiting for a front end's start (default: no).")
    var listen: Bool?

    @Flag(inversion: .prefixedNo, help: "Play a short cue when voice mode starts and ends (default: no).")
    var cues: Bool?

    @Flag(inversion: .prefixedNo, help: "Cancel the assistant's own voice in the microphone with PulseAudio's module-echo-cancel (webrtc), for speakers rather than headphones (default: no).")
    var echoCancel: Bool?

    @Option(help: "Keep the microphone audio of the last N turns (0 to 50), with their transcripts and replies, in $XDG_STATE_HOME/earshot/recordings for bug reports (default: 0, no audio written to disk). `earshot forget` deletes them.")
    var debugTurns: Int?

    @Option(help: "Serve the voice-mode page and its WebSocket to browsers at this loopback address, e.g. 127.0.0.1:8765 (default: off).")
    var web: String?

    @Option(help: "Other pages that may open the WebSocket, separated by spaces, e.g. https://chat.example.com (default: only the daemon's own).")
    var webAllowedOrigins: String?

    @Option(help: "Wait for this wake phrase before taking turns, e.g. \"hey computer\" (default: none, every utterance is a turn).")
    var wake: String?

    @Option(help: "The wake phrase's keyphrase threshold, above 0 and below 1: smaller hears it more often, and wakes falsely more (default: 1e-30).")
    var wakeThreshold: Double?

    @Option(help: "Hear the wake phrase by the takes of it `earshot wake enroll` wrote to this directory, instead of pocketsphinx.")
    var wakeTemplates: String?

    @Option(help: "Seconds without speech after which voice mode waits for the wake phrase again (default: 8).")
    var wakeIdleAfter: Double?

    @Flag(help: "Log debug detail.")
    var verbose = false

    func validate() throws {
        for (key, value) in overrides.values {
            if case .failure(let mismatch) = key.kind.check(value.raw) {
                throw ValidationError("\(key.flag): \(mismatch.message)")
            }
        }
    }

    func run() async throws {
        // glibc gives each thread that allocates an arena of its own, up to eight per core, and
        // keeps what an arena once held: as Swift concurrency's and Dispatch's worker threads came
        // and went, each new one grew another arena by the engines' working set (about 7 MB), and
        // resident memory rose in such steps for as long as the daemon ran (make soak). Two arenas
        // are plenty for a daemon that does this little at once.
        _ = mallopt(M_ARENA_MAX, 2)
        let style = JournalLineStyle.forStandardError()
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            JournalLogHandler.standardError(label: label, level: level, style: style)
        }
        // A broken configuration file stops the daemon here, before it touches the sound server.
        let configuration = try startingConfiguration(style: style)
        try await EarshotDaemon.run(configuration: configuration, logger: Logger(label: "earshotd"))
    }
}
