import ArgumentParser
import EarshotBackends
import EarshotCommandLine
import EarshotDaemon
import EarshotDetection
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
            SIGTERM or SIGINT. Drive it with `earshot status`, `earshot start`, `earshot watch`.
            """
    )

    @Option(help: "Socket path (default: $XDG_RUNTIME_DIR/earshot/earshot.sock).")
    var socket: String?

    @Option(help: "Sound server, e.g. unix:/run/user/1000/pulse/native (default: libpulse's own choice).")
    var server: String?

    @Option(help: "Source (microphone) to record from (default: follow the server's default).")
    var source: String?

    @Option(help: "Sink (speaker) to play to (default: follow the server's default).")
    var sink: String?

    @Option(help: "Transcription: embedded (pocketsphinx), none, or a Wyoming server (tcp://HOST:PORT, unix:///PATH).")
    var stt = "embedded"

    @Option(help: "Language of the speech (BCP 47).")
    var language = "en-US"

    @Option(help: "Seconds `thinking` waits for a reply before returning to listening with an error.")
    var replyTimeout: Double = 15

    @Option(help: "A command that answers each final transcript (run with /bin/sh; the transcript on its stdin; each line it prints is spoken as it arrives).")
    var responder: String?

    @Option(help: "Seconds the responder may stay silent before it is stopped.")
    var responderTimeout: Double = 30

    @Option(help: "Speech: embedded (flite, espeak-ng), none, or a Wyoming server (tcp://HOST:PORT, unix:///PATH).")
    var tts = "embedded"

    @Option(help: "The voice replies are spoken in: breeze, cove, sky, juniper, ember, or one of your own.")
    var voice: String?

    @Option(help: "Directory of the bundled voices (default: next to the executable, or the source checkout).")
    var voicesDir: String?

    @OptionGroup var endpointing: EndpointingOptions

    @Option(help: "Speech probability at or above which a frame counts as speech, 0 to 1 (default: the tuned 0.5).")
    var vadThreshold: Float?

    @Flag(help: "Enter voice mode at once (hands-free), without waiting for a front end's start.")
    var listen = false

    @Flag(help: "Play a short cue when voice mode starts and ends.")
    var cues = false

    @Flag(help: "Cancel the assistant's own voice in the microphone with PulseAudio's module-echo-cancel (webrtc), for speakers rather than headphones.")
    var echoCancel = false

    @Flag(help: "Log debug detail.")
    var verbose = false

    func validate() throws {
        if let vadThreshold, !(0...1).contains(vadThreshold) {
            throw ValidationError("--vad-threshold must be between 0 and 1 (got \(vadThreshold)).")
        }
        do {
            _ = try BackendChoice(parsing: stt, role: .speechToText)
        } catch {
            throw ValidationError("--stt: \(error.description)")
        }
        guard replyTimeout > 0, replyTimeout <= 3600 else {
            throw ValidationError("--reply-timeout must be between 0 and 3600 seconds (got \(replyTimeout)).")
        }
        guard responderTimeout > 0, responderTimeout <= 3600 else {
            throw ValidationError("--responder-timeout must be between 0 and 3600 seconds (got \(responderTimeout)).")
        }
        do {
            _ = try BackendChoice(parsing: tts, role: .textToSpeech)
        } catch {
            throw ValidationError("--tts: \(error.description)")
        }
    }

    func run() async throws {
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let configuration = DaemonConfiguration(
            socketPath: socket ?? SocketLocation.defaultPath(),
            soundServer: server,
            source: source,
            sink: sink,
            endpointer: endpointing.configuration,
            detector: SpectralVAD.Configuration(threshold: vadThreshold ?? SpectralVAD.Configuration().threshold),
            startsListening: listen,
            playsCues: cues,
            echoCancellation: echoCancel,
            transcriber: try BackendChoice(parsing: stt, role: .speechToText),
            language: language,
            replyTimeout: .milliseconds(Int(replyTimeout * 1000)),
            responder: responder,
            responderTimeout: .milliseconds(Int(responderTimeout * 1000)),
            synthesizer: try BackendChoice(parsing: tts, role: .textToSpeech),
            voice: voice,
            voicesDirectory: voicesDir
        )
        try await EarshotDaemon.run(configuration: configuration, logger: Logger(label: "earshotd"))
    }
}
