import EarshotPulse
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the configuration file whenever the daemon receives SIGHUP, until shutdown.
struct SettingsReloadService: Service {
    /// Trapped before the service group starts, so that a SIGHUP right after start-up reloads
    /// rather than kills the daemon.
    private let signals: UnixSignalsSequence
    /// Nil when the daemon was configured in code, with no file to read again.
    private let reloader: SettingsReloader?
    private let logger: Logger

    init(settings: DaemonSettings?, session: VoiceSession, engine: PulseAudioEngine) async {
        signals = await UnixSignalsSequence(trapping: .sighup)
        let logger = Logger(label: "earshotd.config")
        self.logger = logger
        reloader = settings.map { SettingsReloader(settings: $0, session: session, engine: engine, logger: logger) }
    }

    func run() async {
        for await _ in signals.cancelOnGracefulShutdown() {
            if let reloader {
                await reloader.reload()
            } else {
                logger.notice("SIGHUP ignored: this daemon was not configured from a file")
            }
        }
    }
}
