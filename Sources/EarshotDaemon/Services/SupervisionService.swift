import EarshotBase
import EarshotPulse
import Logging
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches the audio loop (``Supervisor``) and keeps systemd informed (Type=notify): READY=1
/// once the socket listens and the audio is up, a STATUS= line that follows the daemon's state,
/// WATCHDOG=1 while the audio loop is healthy, and STOPPING=1 on shutdown. Without a service
/// manager (no NOTIFY_SOCKET) it only logs stalls, and restarts the daemon when the audio thread
/// is stuck.
struct SupervisionService: Service {
    let engine: PulseAudioEngine
    let monitor: AudioLoopMonitor
    /// The socket front ends connect to, for the status line.
    let socket: String
    let logger: Logger

    func run() async throws {
        let isManaged = ServiceManager.isListening
        var watchdogInterval: Duration?
        do {
            watchdogInterval = isManaged ? try ServiceManager.watchdogInterval() : nil
        } catch {
            logger.warning("Cannot read the watchdog interval (WATCHDOG_USEC); sending no keep-alives", metadata: ["error": "\(error)"])
        }
        var supervisor = Supervisor(configuration: .init(socket: socket, watchdogInterval: watchdogInterval))
        if let watchdogInterval {
            logger.info("systemd watchdog on: keep-alives every half interval while the audio loop is healthy", metadata: ["interval": "\(watchdogInterval)"])
        }
        // Several samples per keep-alive, so a stall is seen soon after it passes the limit;
        // without a manager, one a second is enough for the 5 s limit and wakes the daemon less.
        let period = isManaged ? min(.milliseconds(250), supervisor.configuration.stallLimit / 4) : .seconds(1)
        let started = ContinuousClock.now
        var notifier = Notifier(logger: logger, isManaged: isManaged)
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            for action in supervisor.observe(sample(since: started)) { perform(action, with: &notifier) }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: period) }
        }
        for action in supervisor.stop() { perform(action, with: &notifier) }
    }

    private func sample(since started: ContinuousClock.Instant) -> AudioLoopSample {
        AudioLoopSample(
            time: ContinuousClock.now - started,
            isSocketListening: monitor.isSocketListening,
            audioThreadTurns: engine.counters.heartbeats,
            framesCaptured: engine.counters.framesCaptured,
            soundServer: monitor.soundServer(engine.status),
            isCapturing: engine.microphone != .closed
        )
    }

    private func releaseCleanFilePages() {
        do {
            let released = try CleanFilePages.release()
            logger.debug("Released the pages only starting up used", metadata: ["kilobytes": "\(released.kilobytes)", "mappings": "\(released.mappings)"])
        } catch {
            logger.warning("Cannot release the pages only starting up used (\(error)); the daemon keeps them resident")
        }
    }

    private func perform(_ action: SupervisorAction, with notifier: inout Notifier) {
        switch action {
        case .ready(let status):
            releaseCleanFilePages()
            guard notifier.isManaged else { return }
            logger.info("Ready", metadata: ["status": "\(status)"])
            notifier.send([.ready, .status(status)])
        case .status(let status):
            guard notifier.isManaged else { return }
            logger.info("Status", metadata: ["status": "\(status)"])
            notifier.send([.status(status)])
        case .keepAlive:
            notifier.send([.watchdog])
        case .stalled(let message):
            logger.error("\(message)")
        case .recovered(let message):
            logger.notice("\(message)")
        case .restart:
            restart(isManaged: notifier.isManaged)
        case .stopping(let status):
            notifier.send([.stopping, .status(status)])
        }
    }

    /// Under a service manager without a watchdog, exits for it to start the daemon again
    /// (`Restart=on-failure`; a socket it passed stays with it). Otherwise starts afresh in place.
    /// `_exit`, not `exit`: exit handlers could wait for the lock the stuck thread holds. Log
    /// lines are written to stderr as they come, so none is lost.
    private func restart(isManaged: Bool) -> Never {
        if isManaged {
            logger.critical("Exiting, for systemd to start earshotd again")
            _exit(EXIT_FAILURE)
        }
        logger.critical("Restarting earshotd")
        let failure = ProcessRestart.restart()
        logger.critical("Cannot restart earshotd (\(String(cString: strerror(failure)))); exiting")
        _exit(EXIT_FAILURE)
    }

    /// Sends notifications, logging the first failure only: a manager that stopped listening
    /// would otherwise fill the log four times a second.
    private struct Notifier {
        let logger: Logger
        /// A service manager listens (NOTIFY_SOCKET is set).
        let isManaged: Bool
        var hasFailed = false

        mutating func send(_ fields: [NotifyField]) {
            guard isManaged else { return }
            do {
                try ServiceManager.notify(fields)
            } catch {
                guard !hasFailed else { return }
                hasFailed = true
                logger.warning("Cannot notify systemd", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// What the capture and socket services tell the supervisor: that the socket listens and how
/// the sound server fares.
final class AudioLoopMonitor: Sendable {
    private let listening = Atomic<Bool>(false)
    private let loss = Locked<SoundServerState?>(nil)

    /// The socket accepts connections.
    func socketListens() {
        listening.store(true, ordering: .releasing)
    }

    var isSocketListening: Bool { listening.load(ordering: .acquiring) }

    /// Called with each engine event, off the audio path.
    func record(_ event: PulseEngineEvent) {
        switch event {
        case .connected:
            loss.withLock { $0 = nil }
        case .disconnected(let error, let retryIn):
            loss.withLock { $0 = .lost(reason: error.message, retryIn: retryIn) }
        case .sourceChanged, .sinkChanged, .devicesChanged, .playbackFinished:
            break
        }
    }

    /// The connection as `status` shows it, with the reason and retry delay of the latest loss.
    func soundServer(_ status: PulseEngineStatus) -> SoundServerState {
        if status.isConnected { return .connected(source: status.source ?? "the default source") }
        return loss.withLock { $0 } ?? .connecting
    }
}
