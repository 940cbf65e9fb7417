import EarshotBackends
import EarshotConversation
import EarshotPulse
import EarshotServer
public import Logging
import ServiceLifecycle

/// `earshotd`: the capture service and the socket service in one service group, stopped
/// gracefully on SIGTERM or SIGINT.
public enum EarshotDaemon {
    public static func run(configuration: DaemonConfiguration, logger: Logger) async throws {
        let engine = try PulseAudioEngine(
            configuration: .init(server: configuration.soundServer, source: configuration.source, sink: configuration.sink),
            logger: Logger(label: "earshotd.audio")
        )
        // Voice mode starts off unless asked for: the microphone stays closed until `start`.
        engine.setCapturing(configuration.startsListening)
        let relay = EventRelay()
        let (reports, reported) = AsyncStream.makeStream(of: TranscriptionReport.self)
        let transcription = SpeechBackends.transcriber(configuration.transcriber, logger: Logger(label: "earshotd.stt")).map {
            TranscriptionQueue(transcriber: $0, configuration: .init(language: configuration.language)) { reported.yield($0) }
        }
        let session = VoiceSession(
            configuration: configuration, engine: engine, relay: relay, transcription: transcription,
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
