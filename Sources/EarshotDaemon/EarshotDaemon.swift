import EarshotBackends
import EarshotConversation
import EarshotPulse
import EarshotServer
import EarshotVoices
public import Logging
import ServiceLifecycle

/// `earshotd`: the capture service and the socket service in one service group, stopped
/// gracefully on SIGTERM or SIGINT.
public enum EarshotDaemon {
    public static func run(configuration: DaemonConfiguration, logger: Logger) async throws {
        let engine = try PulseAudioEngine(
            configuration: .init(
                server: configuration.soundServer, source: configuration.source, sink: configuration.sink,
                echoCancellation: configuration.echoCancellation
            ),
            logger: Logger(label: "earshotd.audio")
        )
        // Voice mode starts off unless asked for: the microphone stays closed until `start`.
        engine.setCapturing(configuration.startsListening)
        let relay = EventRelay()
        let (reports, reported) = AsyncStream.makeStream(of: TranscriptionReport.self)
        let transcription = SpeechBackends.transcriber(configuration.transcriber, logger: Logger(label: "earshotd.stt")).map {
            TranscriptionQueue(transcriber: $0, configuration: .init(language: configuration.language)) { reported.yield($0) }
        }
        if let transcription {
            let transcriber = transcription.transcriber
            Task {
                do {
                    try await transcriber.prepare()
                } catch {
                    logger.error("The transcriber could not get ready: \(error)")
                }
            }
        }
        let voices = VoiceCatalog.load(explicitBundledDirectory: configuration.voicesDirectory)
        for problem in voices.problems { logger.warning("\(problem.description)") }
        guard let voice = configuration.voice.map({ voices.voice(named: $0) }) ?? voices.defaultVoice else {
            let known = voices.voices.map(\.id).joined(separator: ", ")
            throw DaemonStartError(message: "There is no voice called \"\(configuration.voice ?? "breeze")\". Voices: \(known).")
        }
        let tap = SpeakerTap()
        let (playbackReports, playbackReported) = AsyncStream.makeStream(of: PlaybackReport.self)
        let player = SpeechBackends.synthesizer(configuration.synthesizer, logger: Logger(label: "earshotd.tts")).map {
            SpeechPlayer(engine: engine, synthesizer: $0, tap: tap, logger: Logger(label: "earshotd.speech")) { playbackReported.yield($0) }
        }
        let session = VoiceSession(
            configuration: configuration, engine: engine, relay: relay, transcription: transcription,
            player: player, tap: tap, voices: voices, voice: voice,
            responder: configuration.responder.map {
                ResponderRunner(responder: Responder(command: $0, timeout: configuration.responderTimeout))
            },
            logger: Logger(label: "earshotd.turns")
        )
        let server = SocketServer(
            configuration: .init(path: configuration.socketPath),
            logger: Logger(label: "earshotd.socket"),
            handler: DaemonCommandHandler(session: session, engine: engine, relay: relay)
        )
        relay.attach(server)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: SocketService(server: server), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: CaptureService(engine: engine, session: session, logger: logger), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: TranscriptionService(reports: reports, session: session), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: PlaybackService(reports: playbackReports, session: session), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        logger.info("Starting", metadata: ["socket": "\(configuration.socketPath)"])
        try await group.run()
        logger.info("Stopped")
    }
}
