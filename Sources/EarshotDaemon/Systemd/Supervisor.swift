/// Decides what earshotd tells its service manager: when it is ready, the status line a person
/// reads in `systemctl status`, and when watchdog keep-alives are due.
///
/// Ready means front ends can connect and the audio is up: the socket listens and the sound
/// server is connected (with frames arriving, when the microphone is wanted from the start). A
/// sound server that does not answer must not keep the unit from starting, since the daemon
/// reconnects by itself and serves its socket meanwhile, so after `readyTimeout` it is ready
/// anyway, with a status that says the sound server is not answering.
///
/// Keep-alives go out every half watchdog interval while the audio loop is healthy
/// (``AudioLoopWatch``); a stuck loop stops them, and the manager restarts the daemon. Without a
/// watchdog, a stuck audio thread has the daemon restart itself: nothing else would end it.
public struct Supervisor: Equatable, Sendable {
    public struct Configuration: Equatable, Sendable {
        /// The socket front ends connect to, as the status line names it.
        public var socket: String
        /// The longest wait for the sound server before reporting ready without it.
        public var readyTimeout: Duration
        /// `WatchdogSec=`; nil when the manager expects no keep-alives.
        public var watchdogInterval: Duration?

        public init(socket: String, readyTimeout: Duration = .seconds(5), watchdogInterval: Duration? = nil) {
            self.socket = socket
            self.readyTimeout = readyTimeout
            self.watchdogInterval = watchdogInterval
        }

        /// How long the loop may stand still before it counts as stuck: the watchdog interval
        /// (the manager would give up then anyway), else 5 s (the audio thread turns four
        /// times a second, so a thread that has not turned for 5 s will not).
        public var stallLimit: Duration { watchdogInterval ?? .seconds(5) }
    }

    public let configuration: Configuration
    private var watch: AudioLoopWatch
    private var health = AudioLoopHealth.healthy
    public private(set) var isReady = false
    private var hasConnected = false
    private var statusLine: String?
    private var lastKeepAlive: Duration?

    public init(configuration: Configuration) {
        self.configuration = configuration
        watch = AudioLoopWatch(limit: configuration.stallLimit)
    }

    /// Takes a sample; returns what to send and log, in order.
    public mutating func observe(_ sample: AudioLoopSample) -> [SupervisorAction] {
        var actions: [SupervisorAction] = []
        let previousHealth = health
        health = watch.observe(sample)
        if case .connected = sample.soundServer { hasConnected = true }
        if health != previousHealth {
            if health == .healthy {
                actions.append(.recovered(recoveryMessage(after: previousHealth)))
            } else {
                actions.append(.stalled(stallMessage))
                if health == .pipelineStalled, configuration.watchdogInterval == nil {
                    actions.append(.restart)
                }
            }
        }
        let line = Self.statusLine(for: sample, health: health, hasConnected: hasConnected, configuration: configuration)
        if !isReady, sample.isSocketListening, isAudioUp(sample) || sample.time >= configuration.readyTimeout {
            isReady = true
            statusLine = line
            actions.append(.ready(status: line))
        } else if line != statusLine {
            statusLine = line
            actions.append(.status(line))
        }
        if let interval = configuration.watchdogInterval, health == .healthy,
            lastKeepAlive.map({ sample.time - $0 >= interval / 2 }) ?? true
        {
            lastKeepAlive = sample.time
            actions.append(.keepAlive)
        }
        return actions
    }

    /// The daemon is shutting down.
    public mutating func stop() -> [SupervisorAction] {
        statusLine = "stopping"
        return [.stopping(status: "stopping")]
    }

    private func isAudioUp(_ sample: AudioLoopSample) -> Bool {
        guard case .connected = sample.soundServer else { return false }
        return !sample.isCapturing || watch.isCaptureFlowing
    }

    private var stallMessage: String {
        let limit = Self.seconds(configuration.stallLimit)
        let what = switch health {
        case .healthy: ""
        case .pipelineStalled: "The audio pipeline thread has not run for over \(limit) s"
        case .captureStalled(let source): "No audio has come from \(source) for over \(limit) s while capturing"
        }
        if configuration.watchdogInterval != nil {
            return what + ": the audio loop is stuck; watchdog keep-alives stop, so systemd restarts earshotd."
        }
        return what + (health == .pipelineStalled ? ": it is stuck, so earshotd restarts itself." : ".")
    }

    private func recoveryMessage(after stall: AudioLoopHealth) -> String {
        let what = switch stall {
        case .captureStalled(let source): "Audio from \(source) flows again"
        case .healthy, .pipelineStalled: "The audio pipeline thread runs again"
        }
        return what + (configuration.watchdogInterval == nil ? "." : "; watchdog keep-alives resume.")
    }

    static func statusLine(
        for sample: AudioLoopSample, health: AudioLoopHealth, hasConnected: Bool, configuration: Configuration
    ) -> String {
        let limit = seconds(configuration.stallLimit)
        switch health {
        case .pipelineStalled:
            return "stuck: the audio pipeline has not run for over \(limit) s"
        case .captureStalled(let source):
            return "stuck: no audio from \(source) for over \(limit) s"
        case .healthy:
            break
        }
        switch sample.soundServer {
        case .connecting:
            return (hasConnected ? "reconnecting to the sound server" : "connecting to the sound server")
                + "; socket \(configuration.socket)"
        case .lost(let reason, let retryIn):
            return (hasConnected ? "sound server lost" : "sound server not answering")
                + " (\(reason)); retrying in \(seconds(retryIn)) s; socket \(configuration.socket)"
        case .connected(let source):
            return sample.isCapturing ? "listening on \(source)" : "idle (voice mode off); socket \(configuration.socket)"
        }
    }

    /// Seconds with one decimal: "2.0".
    static func seconds(_ duration: Duration) -> String {
        let tenths = (duration / .milliseconds(100)).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }
}

/// What the supervisor asks of the daemon: messages for the service manager and lines for the log.
public enum SupervisorAction: Equatable, Sendable {
    /// Start-up is done: tell the manager (`READY=1`) with this status line.
    case ready(status: String)
    /// The status line changed (`STATUS=`).
    case status(String)
    /// The loop is healthy and a keep-alive is due (`WATCHDOG=1`).
    case keepAlive
    /// The loop just got stuck; keep-alives stop until it recovers. Log it (once).
    case stalled(String)
    /// The loop works again after a stall; keep-alives resume. Log it.
    case recovered(String)
    /// The audio thread is stuck and no watchdog will end it: the daemon starts itself afresh
    /// (clients reconnect; the conversation in progress is lost).
    case restart
    /// Shutting down (`STOPPING=1`) with this status line.
    case stopping(status: String)
}
