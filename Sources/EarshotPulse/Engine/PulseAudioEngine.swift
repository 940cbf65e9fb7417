import Dispatch
public import EarshotAudio
import EarshotBase
public import Logging

/// Live audio through a PulseAudio (or PipeWire) server: capture from a source into a ring of
/// 10 ms frames, playback of cues and speech on a sink, device choice, and reconnection
/// whenever the server goes away.
///
/// Threads: libpulse runs every callback on Earshot's mainloop thread (`PulseMainloop`); the caller's threads take the
/// mainloop lock briefly for the public methods. Captured frames go to a frame handler on the mainloop thread (the
/// daemon's pipeline), or without one to a ring that one consumer thread drains with
/// `waitForFrames` and `popFrame`.
public final class PulseAudioEngine: Sendable {
    public let configuration: Configuration
    /// What happens to the connection and devices, in order. Finishes when the engine stops.
    public let events: AsyncStream<PulseEngineEvent>

    private let eventContinuation: AsyncStream<PulseEngineEvent>.Continuation
    private let ring: FrameRing
    private let framesAvailable = DispatchSemaphore(value: 0)
    let mainloop: PulseMainloop
    let session: PulseSession
    private let lifecycle = Locked(Lifecycle.idle)

    private enum Lifecycle { case idle, running, stopped }

    /// Sets the engine up without connecting; `start` connects. Throws only when libpulse cannot
    /// create its mainloop (out of memory or file descriptors).
    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "earshot.pulse")) throws(PulseError) {
        self.configuration = configuration
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        ring = FrameRing(holding: configuration.ringDuration)
        mainloop = try PulseMainloop(threadName: "earshot-pulse")
        session = PulseSession(
            configuration: configuration, logger: logger, mainloop: mainloop, ring: ring,
            framesAvailable: framesAvailable, emit: { [eventContinuation] in eventContinuation.yield($0) }
        )
    }

    deinit { stop() }

    /// Starts connecting in the background; until `stop`, the engine keeps (re)connecting and
    /// capturing whenever the server is there. Throws only when the mainloop thread cannot start.
    public func start() throws(PulseError) {
        try lifecycle.withLock { (state) throws(PulseError) in
            guard state == .idle else { return }
            try mainloop.start()
            state = .running
            mainloop.withLock { session.begin() }
        }
    }

    /// Closes the streams, unloads the echo canceller (waiting up to a second for the server to
    /// confirm), closes the connection, stops the mainloop and finishes `events`. Idempotent; the
    /// engine cannot be started again.
    public func stop() {
        let wasRunning = lifecycle.withLock { state in
            defer { state = .stopped }
            return state == .running
        }
        if wasRunning {
            let unloaded = DispatchSemaphore(value: 0)
            let unloading = mainloop.withLock { session.end { unloaded.signal() } }
            if unloading { _ = unloaded.wait(timeout: .now() + .seconds(1)) }
            mainloop.withLock {
                session.stopClocks()
                session.teardown()
            }
            mainloop.stop()
        }
        eventContinuation.finish()
        framesAvailable.signal()
    }

    /// Runs `body` with the mainloop lock held: the only way other threads touch the session.
    func withSession<Result>(_ body: (PulseSession) -> Result) -> Result {
        mainloop.withLock { body(session) }
    }

    // MARK: Capture

    /// Blocks until captured frames are waiting or `timeout` passes; true when frames are waiting.
    public func waitForFrames(timeout: Duration) -> Bool {
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.microseconds * 1000))
        while ring.isEmpty {
            // Signals outnumber wake-ups when one wake-up drains several frames: loop past them.
            if framesAvailable.wait(timeout: deadline) == .timedOut { return !ring.isEmpty }
        }
        return true
    }

    /// Opens, closes or silences the microphone (it starts open). Closed or silenced, the record
    /// stream is corked and the desktop shows the microphone as unused; silenced, frames of
    /// silence keep arriving in real time, so audio time runs on (a muted voice mode keeps its
    /// timeouts and the speaker's levels).
    public func setMicrophone(_ state: MicrophoneState) {
        mainloop.withLock { session.setMicrophone(state) }
    }

    /// Without the mainloop's lock: it answers while the audio thread is stuck.
    public var microphone: MicrophoneState {
        MicrophoneState(code: session.microphoneStore.load(ordering: .acquiring))
    }

    /// Hands every captured frame to `handler` on libpulse's mainloop thread, where the fragment
    /// arrives, instead of queueing it for `waitForFrames` / `popFrame`. Set it before `start`.
    /// The handler runs with the capture lock held (see `withCaptureLock`); like the rest of the
    /// audio path it must not block, allocate per frame, log per frame or wait on a client.
    public func setFrameHandler(_ handler: @escaping @Sendable (AudioFrame) -> Void) {
        mainloop.withLock { session.assembler.handler = handler }
    }

    /// Runs `body` holding the lock the frame handler runs under, so state the handler owns can
    /// be touched from other threads. Reentrant; keep `body` short: capture waits meanwhile.
    public func withCaptureLock<Result>(_ body: () -> Result) -> Result {
        mainloop.withLock(body)
    }

    /// The oldest captured frame not yet taken, or nil. Indices run on across reconnects; a gap
    /// means frames were dropped (see `counters.overflowFrames`).
    public func popFrame() -> AudioFrame? { ring.pop() }

    public var counters: PulseEngineCounters {
        PulseEngineCounters(
            framesCaptured: session.assembler.frameCount, holeFrames: session.assembler.holeFrameCount,
            overflowFrames: ring.overflowCount, reconnects: session.reconnects.load(ordering: .relaxed),
            longestFragmentGap: session.assembler.longestFragmentGap,
            heartbeats: session.heartbeats.load(ordering: .relaxed)
        )
    }

    /// Whether the engine is connected, and the server, source and sink in use.
    public var status: PulseEngineStatus { session.statusStore.withLock { $0 } }

    // MARK: Playback

    /// Queues `samples` (16 kHz mono, -1...1) after whatever is playing; returns at once.
    /// Returns false, playing nothing, while no playback stream is open (the server is away).
    @discardableResult
    public func play(_ samples: [Float]) -> Bool {
        mainloop.withLock { session.enqueuePlayback(samples) }
    }

    /// Returns true once `play` can be heard: at once while a playback stream is open. While the
    /// connection is being made (at start, or retried after a loss) it waits for it, up to
    /// `configuration.connectionWait`; false when it is not made by then, when it is made
    /// without a sink to play on, when the engine is not running, or when the task is cancelled.
    public func waitUntilPlayable() async -> Bool {
        let id = session.connectionWaitIDs.add(1, ordering: .relaxed).newValue
        let bound = configuration.connectionWait
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                withSession { session in
                    // Checked under the lock the cancellation handler takes: a cancellation either
                    // shows here or finds the wait registered.
                    if Task.isCancelled { return continuation.resume(returning: false) }
                    session.waitUntilPlayable(id: id, within: bound, continuation)
                }
            }
        } onCancel: {
            withSession { $0.cancelConnectionWait(id: id) }
        }
    }

    /// Sets the playback stream's own volume: `gain` from 0 (silent) to 1 (normal), linear in
    /// amplitude (0.25 is -12 dB), for ducking speech while the person may be interrupting. Takes
    /// effect at once on what is playing, holds for later streams and reconnections, and returns
    /// without waiting for the server (a failure is logged). The sink's own volume is untouched.
    public func setPlaybackVolume(_ gain: Float) {
        let gain = gain.isNaN ? 1 : min(max(gain, 0), 1)
        mainloop.withLock { session.setPlaybackGain(gain) }
    }

    /// Silences the speaker at once and forgets everything queued.
    public func stopPlayback() {
        mainloop.withLock { session.stopPlaybackNow() }
    }

    /// Pauses the speaker at once, keeping what is queued (true), or resumes where it paused
    /// (false): a possible interruption silences the reply without losing it.
    public func pausePlayback(_ paused: Bool) {
        mainloop.withLock { session.setPlaybackPaused(paused) }
    }

    /// Returns once everything queued so far has played, or was stopped or lost.
    public func waitForPlayback() async {
        await withCheckedContinuation { continuation in
            mainloop.withLock { session.waitForPlayback(continuation) }
        }
    }
}

// MARK: - Devices

// Device listing and choice. All of it needs the server: while it is away these throw an error
// whose `isServerUnavailable` is true.
extension PulseAudioEngine {
    /// The server's sources and sinks, with the defaults marked.
    public func devices() async throws(PulseError) -> PulseDeviceList {
        let info = try await query(nil as PulseServerInfo?, "read the server's defaults") { $0.requestServerInfo($1) }
        let sources = try await query([PulseDevice](), "list the sources") { $0.requestSources($1) }
        let sinks = try await query([PulseDevice](), "list the sinks") { $0.requestSinks($1) }
        func marked(_ devices: [PulseDevice], default name: String?) -> [PulseDevice] {
            devices.map { device in
                var device = device
                device.isDefault = device.name == name
                return device
            }
        }
        let markedSources = marked(sources, default: info?.defaultSource)
        return PulseDeviceList(
            sources: markedSources.filter { !$0.isMonitor } + markedSources.filter(\.isMonitor),
            sinks: marked(sinks, default: info?.defaultSink)
        )
    }

    /// Captures from the source `name` from now on, or from the server's default (followed as it
    /// changes) when nil. Returns the source now in use; an unknown name throws `.noEntity`.
    /// With echo cancellation the canceller moves onto the source (which is what is returned) and
    /// capture stays on the canceller's source.
    @discardableResult
    public func setSource(_ name: String?) async throws(PulseError) -> String {
        try await select(.capture, name)
    }

    /// Plays on the sink `name` from now on, or on the server's default when nil. Returns the
    /// sink now in use; an unknown name throws `.noEntity`. With echo cancellation, as for
    /// `setSource`.
    @discardableResult
    public func setSink(_ name: String?) async throws(PulseError) -> String {
        try await select(.playback, name)
    }

    private func select(_ role: PulseStreamRole, _ name: String?) async throws(PulseError) -> String {
        if let name {
            let operation = "use the \(role.deviceKind) \"\(name)\""
            do {
                _ = try await query(nil as PulseDevice?, operation) { context, query in
                    switch role {
                    case .capture: context.requestSource(named: name, query)
                    case .playback: context.requestSink(named: name, query)
                    }
                }
            } catch {
                // The server refuses to look up a name it could never give a device (a space, a
                // slash, a control character, over 128 bytes): no device has it.
                guard error.code == .invalidArgument else { throw error }
                throw PulseError(.noEntity, while: operation)
            }
        }
        let result: Result<String, PulseError> = await withCheckedContinuation { continuation in
            withSession { $0.select(role, name) { continuation.resume(returning: $0) } }
        }
        return try result.get()
    }

    /// Runs one libpulse query on the current connection and waits for its answer.
    private func query<Value: Sendable>(
        _ initial: Value, _ operation: String, _ issue: @escaping (PulseContext, PulseQuery<Value>) -> Void
    ) async throws(PulseError) -> Value {
        let result: Result<Value, PulseError> = await withCheckedContinuation { continuation in
            withSession { session in
                let query = PulseQuery(initial, operation: operation) { continuation.resume(returning: $0) }
                guard let context = session.context, context.isReady else {
                    return query.fail(PulseError(.connectionRefused, while: operation))
                }
                issue(context, query)
            }
        }
        return try result.get()
    }
}

// MARK: - Configuration

extension PulseAudioEngine {
    public struct Configuration: Sendable {
        /// The server to connect to; nil lets libpulse choose (`PULSE_SERVER`, then the user's).
        public var server: String?
        /// The source to capture from; nil follows the server's default.
        public var source: String?
        /// The sink to play on; nil follows the server's default.
        public var sink: String?
        /// How the engine's connection and streams are named on the server.
        public var applicationName: String
        public var retryBackoff: RetryBackoff
        /// How much captured audio may wait for the consumer before frames are dropped.
        public var ringDuration: Duration
        /// How far ahead of the speaker playback is buffered on the server; `stopPlayback` can
        /// not silence audio the server has already handed to the device, so keep this short.
        public var playbackLatency: Duration
        /// Whether to put PulseAudio's echo canceller (`module-echo-cancel`, WebRTC) between the
        /// engine and its devices, so the microphone does not hear the engine's own playback
        /// through speakers. Falls back to the plain devices when the server cannot load it; see
        /// `PulseEngineStatus.echoCancellation`. Assumes one such engine per server.
        public var echoCancellation: Bool
        /// How long `waitUntilPlayable` waits for a connection being made. The default, 5 s, is
        /// ten times the longest retry delay (0.5 s), so a server that comes back up to about
        /// 4 s after the request is still heard (the streams are up some tens of milliseconds
        /// after it answers, longer for a slow build or the echo canceller); and it is half the
        /// turn machine's 10 s wait for a reply to start, so a reply fails with the player's own
        /// error rather than a timeout.
        public var connectionWait: Duration
        /// The canceller's `aec_method`; tests set a bogus one to make loading fail.
        var echoCancellerMethod = "webrtc"

        public init(
            server: String? = nil, source: String? = nil, sink: String? = nil,
            applicationName: String = "Earshot", retryBackoff: RetryBackoff = RetryBackoff(),
            ringDuration: Duration = .seconds(2), playbackLatency: Duration = .milliseconds(40),
            echoCancellation: Bool = false, connectionWait: Duration = .seconds(5)
        ) {
            self.server = server
            self.source = source
            self.sink = sink
            self.applicationName = applicationName
            self.retryBackoff = retryBackoff
            self.ringDuration = ringDuration
            self.playbackLatency = playbackLatency
            self.echoCancellation = echoCancellation
            self.connectionWait = connectionWait
        }
    }
}

/// Delays between reconnection attempts: `initial`, doubling, never above `maximum`.
public struct RetryBackoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    private var attempts = 0

    /// The defaults keep the daemon listening again within a second of the server's return:
    /// 0.1 s, 0.2 s, 0.4 s, then every 0.5 s.
    public init(initial: Duration = .milliseconds(100), maximum: Duration = .milliseconds(500)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt.
    public mutating func next() -> Duration {
        let factor = 1 << min(attempts, 20)
        attempts += 1
        return min(initial * factor, maximum)
    }

    /// Starts over after a successful connection.
    public mutating func reset() { attempts = 0 }
}
