import CPulse
import Dispatch
import EarshotAudio
import EarshotBase
import Logging
import Synchronization

/// Everything the engine does with libpulse: the connection, its two streams, the retry timer.
///
/// A session is driven by libpulse callbacks on the mainloop thread; the engine's public methods
/// reach it only with the mainloop lock held. Whether and when to connect, report and retry is
/// decided by `PulseConnectionMachine`, which device each stream uses and when the echo canceller
/// is loaded by `PulseRoutingMachine`; the session turns libpulse's callbacks into their inputs
/// and performs their actions. Callbacks get an unretained pointer to it; the engine keeps it
/// alive until the mainloop is stopped, and every libpulse object it owns has its callbacks
/// cleared before it is released.
final class PulseSession: @unchecked Sendable {
    // @unchecked: the `var`s are touched only on the mainloop thread or with its lock held; the
    // `let`s are immutable or synchronize themselves.
    let configuration: PulseAudioEngine.Configuration
    let logger: Logger
    let mainloop: PulseMainloop
    let assembler: CaptureFrameAssembler
    /// Signalled (never waited on here) when frames were pushed into the ring.
    let framesAvailable: DispatchSemaphore
    let statusStore = Locked(PulseEngineStatus())
    let reconnects = Atomic<Int>(0)
    let emit: @Sendable (PulseEngineEvent) -> Void

    var connection: PulseConnectionMachine
    var routing: PulseRoutingMachine
    var context: PulseContext?
    var recordStream: PulseStream?
    var playbackStream: PulseStream?
    /// What the server calls itself, from its last info on this connection.
    var serverName: String?
    private var reconnectTimer: OpaquePointer?

    // Playback state, used by PulseSession+Streams.
    var playbackQueue = PlaybackQueue()
    /// Bumped by every `play` and stop, so a drain that completes late is recognized as stale.
    var playbackGeneration = 0
    /// The generation a drain was last requested for, so each is requested once.
    var drainRequestedGeneration = 0
    var isPlaybackCorked = false
    /// A reply is paused (the person may be interrupting): nothing is written and the stream
    /// stays corked until it resumes or is stopped.
    var isPlaybackPaused = false
    /// Whether the microphone is open, closed, or silenced (see `setMicrophone`). Set on the
    /// mainloop, read from anywhere: a watchdog asks while the mainloop may be stuck.
    let microphoneStore = Atomic<Int>(MicrophoneState.open.code)
    var microphone: MicrophoneState {
        get { MicrophoneState(code: microphoneStore.load(ordering: .acquiring)) }
        set { microphoneStore.store(newValue.code, ordering: .releasing) }
    }
    /// Feeds frames of silence while the microphone is silenced: when it began, how many so far.
    var silence: (since: ContinuousClock.Instant, frames: Int)?
    var silenceTimer: OpaquePointer?
    /// Turns of the mainloop, one a second, for the watchdog: the frame handler runs on this
    /// thread, so a stuck handler stops them.
    let heartbeats = Atomic<Int>(0)
    var heartbeatTimer: OpaquePointer?
    var hasUnfinishedPlayback = false
    var playbackWaiters: [CheckedContinuation<Void, Never>] = []
    /// The playback stream's volume (0...1, linear), kept across streams and reconnects.
    var playbackGain: Float = 1
    /// The gain the current playback stream was connected with.
    var playbackStreamGain: Float = 1

    /// Called once the echo canceller loaded when the engine stopped has been unloaded.
    var echoReleaseWaiter: (() -> Void)?

    // Waits for the connection, used by PulseSession+ConnectionWait.
    var connectionWaits: [ConnectionWait] = []
    var connectionWaitTimer: OpaquePointer?
    let connectionWaitIDs = Atomic<Int>(0)

    init(
        configuration: PulseAudioEngine.Configuration, logger: Logger, mainloop: PulseMainloop,
        ring: FrameRing, framesAvailable: DispatchSemaphore, emit: @escaping @Sendable (PulseEngineEvent) -> Void
    ) {
        self.configuration = configuration
        self.logger = logger
        self.mainloop = mainloop
        self.assembler = CaptureFrameAssembler(ring: ring)
        self.framesAvailable = framesAvailable
        self.emit = emit
        self.routing = PulseRoutingMachine(
            source: configuration.source, sink: configuration.sink, echoCancellation: configuration.echoCancellation
        )
        self.connection = PulseConnectionMachine(backoff: configuration.retryBackoff)
    }

    /// `.connected` was sent for the current context.
    var isConnected: Bool { connection.isConnected }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseSession? {
        userdata.map { Unmanaged<PulseSession>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: Lifecycle (mainloop lock held)

    func begin() {
        startHeartbeat()
        perform(connection.start())
    }

    /// Stops for good; `teardown()` then closes everything without reporting it. True when the
    /// echo canceller is still being unloaded: `unloaded` is called once the server has answered,
    /// and `teardown()` should wait until then (closing the connection first loses the request).
    func end(unloaded: @escaping () -> Void) -> Bool {
        perform(connection.stop())
        // Closed first, so the server does not move them when the canceller's devices go.
        closeStreams()
        answerConnectionWaits()
        echoReleaseWaiter = unloaded
        let actions = routing.stop()
        perform(actions)
        let awaitsRelease = actions.contains(.echoCanceller(.awaitRelease))
        if !awaitsRelease { echoReleaseWaiter = nil }
        return awaitsRelease
    }

    // MARK: Connection

    func perform(_ actions: [PulseConnectionMachine.Action]) {
        for action in actions {
            switch action {
            case .connect:
                connect()
            case .watchServer:
                guard let context else { continue }
                context.subscribe(callback: { _, event, index, userdata in
                    PulseSession.from(userdata)?.serverEvent(event, index: index)
                }, userdata: userdata)
                refreshServerInfo()
            case .reportConnected(let reconnected):
                if reconnected { reconnects.add(1, ordering: .relaxed) }
                perform(routing.connectionMade())
                answerConnectionWaits()
            case .tearDown:
                teardown()
            case .reportLoss(let error, let delay):
                logger.warning("lost the sound server", metadata: ["error": "\(error)", "retry_in": "\(delay)"])
                emit(.disconnected(error, retryIn: delay))
            case .noteStillUnavailable(let error, let delay):
                logger.debug("sound server still unavailable", metadata: ["error": "\(error)", "retry_in": "\(delay)"])
            case .retry(let delay):
                scheduleReconnect(after: delay)
            case .cancelRetry:
                cancelReconnect()
            }
        }
    }

    private func connect() {
        guard context == nil else { return }
        do {
            let context = try PulseContext(mainloop: mainloop, applicationName: configuration.applicationName)
            self.context = context
            try context.connect(server: configuration.server, stateCallback: { _, userdata in
                PulseSession.from(userdata)?.contextStateChanged()
            }, userdata: userdata)
        } catch {
            // If libpulse failed the context inside pa_context_connect, the state callback has
            // already reported it, and the machine ignores this second report.
            connectionLost(error)
        }
    }

    private func contextStateChanged() {
        guard let context else { return }
        switch context.state {
        case PA_CONTEXT_READY:
            logger.debug("connected to the sound server", metadata: ["server": "\(context.serverAddress ?? "?")"])
            perform(connection.contextReady())
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            let operation = isConnected ? "stay connected to the sound server" : "connect to the sound server"
            connectionLost(context.lastError(while: operation))
        default:
            break
        }
    }

    /// The connection failed: the machine decides what is torn down, reported and retried.
    func connectionLost(_ error: PulseError) {
        perform(connection.failed(error))
    }

    func reportConnected(source: String, sink: String, echoCancellation: PulseEchoCancellation) {
        let server = context?.serverAddress ?? configuration.server ?? ""
        let status = PulseEngineStatus(
            isConnected: true, server: server, serverName: serverName, source: source, sink: sink,
            echoCancellation: echoCancellation
        )
        statusStore.withLock { $0 = status }
        logger.info("capturing", metadata: ["server": "\(server)", "source": "\(source)", "sink": "\(sink)"])
        emit(.connected(server: server, source: source, sink: sink))
    }

    func teardown() {
        statusStore.withLock { $0 = PulseEngineStatus() }
        closeStreams()
        // Cleared before closing: closing cancels pending queries, whose completions check it.
        let closing = context
        context = nil
        closing?.close()
        serverName = nil
        assembler.discardPartialFrame()
        perform(routing.connectionClosed())
    }

    private func closeStreams() {
        abandonPlayback()
        recordStream?.close()
        recordStream = nil
        playbackStream?.close()
        playbackStream = nil
    }

    private func scheduleReconnect(after delay: Duration) {
        cancelReconnect()
        reconnectTimer = mainloop.makeTimer(after: delay, callback: { _, _, _, userdata in
            guard let session = PulseSession.from(userdata) else { return }
            session.perform(session.connection.retryTimerFired())
        }, userdata: userdata)
    }

    private func cancelReconnect() {
        if let reconnectTimer { mainloop.freeTimer(reconnectTimer) }
        reconnectTimer = nil
    }

    // MARK: Server state

    func refreshServerInfo() {
        guard let context else { return }
        context.requestServerInfo(PulseQuery(nil, operation: "read the server's defaults") { [unowned self] result in
            guard context === self.context else { return }
            switch result {
            case .success(let info?):
                serverName = info.displayName
                perform(routing.serverInfoArrived(PulseServerDefaults(info)))
            case .success(nil): break
            case .failure(let error): logger.debug("no server info", metadata: ["error": "\(error)"])
            }
        })
    }

    private func serverEvent(_ event: pa_subscription_event_type_t, index: UInt32) {
        let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            refreshServerInfo()
        case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue, PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            let role = facility == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue ? PulseStreamRole.capture : .playback
            if kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue { perform(routing.deviceAdded(role, index: index)) }
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { perform(routing.deviceRemoved(role)) }
        case PA_SUBSCRIPTION_EVENT_MODULE.rawValue:
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { perform(routing.echo { $0.moduleRemoved(index) }) }
        default:
            break
        }
    }
}
