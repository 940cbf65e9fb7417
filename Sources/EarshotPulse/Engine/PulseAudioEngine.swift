import Dispatch
public import EarshotAudio
public import Logging
import Synchronization

/// Live audio through a PulseAudio (or PipeWire) server: capture from a source into a ring of
/// 10 ms frames, playback of cues and speech on a sink, device choice, and reconnection
/// whenever the server goes away.
///
/// Threads: libpulse's threaded mainloop runs every callback (the capture callback only copies
/// samples into the ring and signals); the caller's threads take the mainloop lock briefly for
/// the public methods; one consumer thread drains frames with `waitForFrames` and `popFrame`.
public final class PulseAudioEngine: Sendable {
    public let configuration: Configuration
    /// What happens to the connection and devices, in order. Finishes when the engine stops.
    public let events: AsyncStream<PulseEngineEvent>

    private let eventContinuation: AsyncStream<PulseEngineEvent>.Continuation
    private let ring: FrameRing
    private let framesAvailable = DispatchSemaphore(value: 0)
    let mainloop: PulseThreadedMainloop
    let session: PulseSession
    private let lifecycle = Mutex(Lifecycle.idle)

    private enum Lifecycle { case idle, running, stopped }

    /// Sets the engine up without connecting; `start` connects. Throws only when libpulse cannot
    /// create its mainloop (out of memory or file descriptors).
    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "earshot.pulse")) throws(PulseError) {
        self.configuration = configuration
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        ring = FrameRing(holding: configuration.ringDuration)
        mainloop = try PulseThreadedMainloop(threadName: "earshot-pulse")
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
            mainloop.withLock { session.teardown() }
            mainloop.stop()
        }
        eventContinuation.finish()
        framesAvailable.signal()
    }

    /// Runs `body` with the mainloop lock held: the only way other threads touch the session.
    func withSession<Result>(_ body: (PulseSession) -> Result) -> Result {
        mainloop.withLock { body(session) }
    }

    // MARK: Capture (one consumer thread)

    /// Blocks until captured frames are waiting or `timeout` passes; true when frames are waiting.
    public func waitForFrames(timeout: Duration) -> Bool {
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.microseconds * 1000))
        while ring.isEmpty {
            // Signals outnumber wake-ups when one wake-up drains several frames: loop past them.
            if framesAvailable.wait(timeout: deadline) == .timedOut { return !ring.isEmpty }
        }
        return true
    }

    /// Pauses (false) or resumes (true) capture. While paused the record stream is corked: no
    /// frames arrive and the desktop shows the microphone as unused. Capture starts resumed.
    public func setCapturing(_ capturing: Bool) {
        mainloop.withLock { session.setCaptureWanted(capturing) }
    }

    /// The oldest captured frame not yet taken, or nil. Indices run on across reconnects; a gap
    /// means frames were dropped (see `counters.overflowFrames`).
    public func popFrame() -> AudioFrame? { ring.pop() }

    public var counters: PulseEngineCounters {
        PulseEngineCounters(
            framesCaptured: ring.offeredCount, holeFrames: session.assembler.holeFrameCount,
            overflowFrames: ring.overflowCount, reconnects: session.reconnects.load(ordering: .relaxed)
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

    /// Returns once everything queued so far has played, or was stopped or lost.
    public func waitForPlayback() async {
        await withCheckedContinuation { continuation in
            mainloop.withLock { session.waitForPlayback(continuation) }
        }
    }
}
