import EarshotConversation
import EarshotEngines
import EarshotProtocol
import EarshotPulse
import EarshotRecordings
import EarshotServer
import EarshotSpeech
public import Logging
import ServiceLifecycle

/// `earshotd`: the capture service and the socket service in one service group, stopped
/// gracefully on SIGTERM or SIGINT.
public enum EarshotDaemon {
    public static func run(configuration: DaemonConfiguration, logger: Logger) async throws {
        // First: libsystemd takes LISTEN_FDS out of the environment the responder inherits.
        let socket = try SocketActivation.choose(configuredPath: configuration.socketPath, logger: logger)
        // Also while no other thread reads the environment, and before libpulse's first context.
        turnOffLibpulseSharedMemory(besideSocket: configuration.socketPath, logger: logger)
        let monitor = AudioLoopMonitor()
        let engine = try PulseAudioEngine(
            configuration: .init(
                server: configuration.soundServer, source: configuration.source, sink: configuration.sink,
                echoCancellation: configuration.echoCancellation
            ),
            logger: Logger(label: "earshotd.audio")
        )
        // Closed until the turn machine opens it: at once with `listen`, or on `start`.
        engine.setMicrophone(.closed)
        DaemonFaults.injectAsked(engine: engine)
        let relay = EventRelay()
        let (reports, reported) = AsyncStream.makeStream(of: TranscriptionReport.self)
        // Not prepared here: an embedded model loads as the first utterance begins, so a daemon
        // nobody speaks to stays small.
        let transcription = SpeechBackends.transcriber(
            configuration.transcriber, options: configuration.transcriberOptions, logger: Logger(label: "earshotd.stt")
        ).map {
            TranscriptionQueue(transcriber: $0, configuration: .init(language: configuration.language)) { reported.yield($0) }
        }
        let voices = VoiceCatalog.load(explicitBundledDirectory: configuration.voicesDirectory)
        for problem in voices.problems { logger.warning("\(problem.description)") }
        guard let voice = configuration.voice.map({ voices.voice(named: $0) }) ?? voices.defaultVoice else {
            let known = voices.voices.map(\.id).joined(separator: ", ")
            throw DaemonStartError(message: "There is no voice called \"\(configuration.voice ?? "breeze")\". Voices: \(known).")
        }
        let tap = SpeakerTap()
        let (playbackReports, playbackReported) = AsyncStream.makeStream(of: PlaybackReport.self)
        let player = SpeechBackends.synthesizer(
            configuration.synthesizer, options: configuration.synthesizerOptions, logger: Logger(label: "earshotd.tts")
        ).map {
            SpeechPlayer(engine: engine, synthesizer: $0, tap: tap, logger: Logger(label: "earshotd.speech")) { playbackReported.yield($0) }
        }
        // No audio reaches the disk unless debug recording is on; `forget` works either way.
        let recordings = RecordingArchive(
            store: RecordingStore(directory: RecordingLocation.defaultDirectory()),
            keptTurns: min(configuration.debugTurns, RecordingArchive.maximumKeptTurns),
            run: RecordedTurn.runStamp(wall: WallClock.now()), logger: Logger(label: "earshotd.recording")
        )
        let session = VoiceSession(
            configuration: configuration, engine: engine, relay: relay, transcription: transcription,
            player: player, tap: tap, voices: voices, voice: voice,
            responder: replySource(configuration, logger: logger).map(ResponderRunner.init(source:)),
            recorder: recordings.recorder,
            logger: Logger(label: "earshotd.turns")
        )
        session.begin(wake: configuration.wake)
        engine.setFrameHandler { [session] frame in session.process(frame) }
        let settings = configuration.settingsOrigin.map(DaemonSettings.init)
        let server = SocketServer(
            configuration: .init(endpoint: socket.endpoint),
            logger: Logger(label: "earshotd.socket"),
            handler: DaemonCommandHandler(session: session, engine: engine, relay: relay, settings: settings, recordings: recordings)
        )
        relay.attach(server)
        var webService: ServiceGroupConfiguration.ServiceConfiguration?
        if let web = configuration.web {
            guard let directory = WebPage.directory() else {
                throw DaemonStartError(message: "The web front door has no page to serve: \(WebPage.checkoutDirectory) is missing and Earshot is not installed (make install).")
            }
            let token = try WebToken.loadOrCreate(at: WebToken.path(besideSocket: socket.path))
            let access = WebAccess(listen: web.listen, token: AccessToken(token), allowedOrigins: web.allowedOrigins, files: WebPageFiles.names(in: directory))
            webService = .init(
                service: WebService(server: server, web: .init(access: access, directory: directory)),
                successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup
            )
        }
        let reloading = await SettingsReloadService(settings: settings, session: session, engine: engine)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    // First, so that it is the last told to shut down: what was recorded is written.
                    .init(service: RecordingService(archive: recordings), successTerminationBehavior: .ignore, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: SocketService(server: server, onListening: monitor.socketListens), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: CaptureService(engine: engine, session: session, logger: logger, monitor: monitor), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: TranscriptionService(reports: reports, session: session), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: PlaybackService(reports: playbackReports, session: session), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: reloading, successTerminationBehavior: .ignore, failureTerminationBehavior: .gracefullyShutdownGroup),
                ] + (webService.map { [$0] } ?? []) + [
                    // Last, so that it is the first told to shut down: STOPPING=1 goes out at once.
                    .init(service: SupervisionService(engine: engine, monitor: monitor, socket: socket.path, logger: Logger(label: "earshotd.systemd")), successTerminationBehavior: .ignore, failureTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        logger.info("Starting", metadata: ["socket": "\(socket.path)"])
        try await group.run()
        logger.info("Stopped")
    }

    /// Shared memory off for libpulse (`PulseClientConfiguration` says why), with the file beside
    /// the socket. Without it the daemon still runs; only that rare hang is back.
    private static func turnOffLibpulseSharedMemory(besideSocket socket: String, logger: Logger) {
        do {
            let path = try PulseClientConfiguration.install(in: SocketLocation.directory(ofSocket: socket))
            logger.debug("libpulse's shared memory is off", metadata: ["client_config": "\(path)"])
        } catch {
            logger.warning("""
                Cannot turn libpulse's shared memory off (\(error)): a sound server that dies while the \
                daemon connects may leave its audio thread stuck, and the daemon restarts itself after 5 s
                """)
        }
    }
}
