import ArgumentParser
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

    @Option(help: "Audio before the speech onset that belongs to the utterance, in ms.")
    var prefixPaddingMs = 300

    @Option(help: "Speech needed before an onset counts as an utterance, in ms.")
    var minSpeechMs = 150

    @Option(help: "Silence that ends the turn, in ms.")
    var endSilenceMs = 600

    @Flag(help: "Enter voice mode at once (hands-free), without waiting for a front end's start.")
    var listen = false

    @Flag(help: "Play a short cue when voice mode starts and ends.")
    var cues = false

    @Flag(help: "Log debug detail.")
    var verbose = false

    func validate() throws {
        for (name, value) in [("--prefix-padding-ms", prefixPaddingMs), ("--min-speech-ms", minSpeechMs), ("--end-silence-ms", endSilenceMs)]
        where !(0...60_000).contains(value) {
            throw ValidationError("\(name) must be between 0 and 60000 (got \(value)).")
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
            endpointer: Endpointer.Configuration(
                prefixPaddingMilliseconds: prefixPaddingMs,
                minimumSpeechMilliseconds: minSpeechMs,
                endOfTurnSilenceMilliseconds: endSilenceMs
            ),
            startsListening: listen,
            playsCues: cues
        )
        try await EarshotDaemon.run(configuration: configuration, logger: Logger(label: "earshotd"))
    }
}
