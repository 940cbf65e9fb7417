import EarshotAudio
import EarshotBase
import EarshotPulse
import EarshotTestSupport
import Foundation
import Logging
import Synchronization

/// A test server, an engine connected to it and the engine's events: the setup of every live test.
struct LiveAudio {
    let server: any TestSoundServer
    let engine: PulseAudioEngine
    let events: EventLog

    struct NotConnected: Error, CustomStringConvertible {
        var log: String
        var description: String { "the engine did not connect to the test server; server log:\n\(log)" }
    }

    /// Starts a server of `kind` (or uses `existing`) and an engine (configured by `configure`),
    /// and waits for `.connected`.
    static func start(
        on kind: SoundServerKind = .pulseAudio, server existing: (any TestSoundServer)? = nil,
        _ configure: (inout PulseAudioEngine.Configuration) -> Void = { _ in }
    ) async throws -> LiveAudio {
        let server: any TestSoundServer
        if let existing {
            server = existing
        } else {
            server = try await onDedicatedThread { try kind.start() }
        }
        var configuration = PulseAudioEngine.Configuration(server: server.serverAddress, applicationName: "Earshot tests")
        configure(&configuration)
        let engine = try PulseAudioEngine(configuration: configuration, logger: logger)
        let events = EventLog.recording(engine)
        try engine.start()
        guard await events.firstConnected() != nil else { throw NotConnected(log: server.logTail) }
        return LiveAudio(server: server, engine: engine, events: events)
    }

    /// Whether this run is built with a sanitizer (`Scripts/sanitize.sh` says which), which slows
    /// the engine and starves the sound server.
    static let isSanitized = ProcessInfo.processInfo.environment["EARSHOT_SANITIZER"] != nil

    /// Quiet unless EARSHOT_TEST_LOG is set, then everything.
    static var logger: Logger {
        var logger = Logger(label: "earshot.pulse.test")
        logger.logLevel = ProcessInfo.processInfo.environment["EARSHOT_TEST_LOG"] == nil ? .critical : .trace
        return logger
    }

    func stop() {
        engine.stop()
        server.stop()
    }

    /// When `condition` first held, checked every half millisecond on a thread of its own (so the
    /// time is right even while the tests' shared threads are busy); nil if not within `timeout`,
    /// four times as long under a sanitizer, which slows the engine and the sound server's replies.
    static func instant(within timeout: Duration, _ condition: @escaping @Sendable () -> Bool) async -> ContinuousClock.Instant? {
        let patience = isSanitized ? 4 : 1
        return await onDedicatedThread {
            let deadline = ContinuousClock.now + timeout * patience
            while ContinuousClock.now < deadline {
                if condition() { return ContinuousClock.now }
                usleep(500)
            }
            return nil
        }
    }

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/endpointer/\(name)").path
    }
}

/// Every event an engine sends, with when the test saw it.
final class EventLog: Sendable {
    struct Entry: Sendable {
        var event: PulseEngineEvent
        var time: ContinuousClock.Instant
    }

    private let entries = Locked<[Entry]>([])

    private init() {}

    /// Starts reading `engine.events` (until the engine stops).
    static func recording(_ engine: PulseAudioEngine) -> EventLog {
        let log = EventLog()
        Task {
            for await event in engine.events {
                log.entries.withLock { $0.append(Entry(event: event, time: .now)) }
            }
        }
        return log
    }

    var all: [Entry] { entries.withLock { $0 } }
    var events: [PulseEngineEvent] { all.map(\.event) }

    /// The first event from position `start` on that `matches`, waiting up to `timeout`.
    func first(
        from start: Int = 0, within timeout: Duration = .seconds(5), where matches: (PulseEngineEvent) -> Bool
    ) async -> Entry? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let entry = all.dropFirst(start).first(where: { matches($0.event) }) { return entry }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    func firstConnected(from start: Int = 0, within timeout: Duration = .seconds(5)) async -> Entry? {
        await first(from: start, within: timeout) { if case .connected = $0 { true } else { false } }
    }
}

/// A consumer thread like the daemon's: waits for frames, pops them, keeps them with their arrival
/// time.
final class FrameCollector: Sendable {
    struct Arrival: Sendable {
        var frame: AudioFrame
        var time: ContinuousClock.Instant
    }

    private let arrivals = Locked<[Arrival]>([])
    private let isRunning = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    init(_ engine: PulseAudioEngine) {
        // The thread holds the collector until `stop`.
        Thread { [self] in
            while isRunning.load(ordering: .relaxed) {
                guard engine.waitForFrames(timeout: .milliseconds(20)) else { continue }
                while let frame = engine.popFrame() {
                    let now = ContinuousClock.now
                    arrivals.withLock { $0.append(Arrival(frame: frame, time: now)) }
                }
            }
            finished.signal()
        }.start()
    }

    func stop() {
        guard isRunning.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }

    var all: [Arrival] { arrivals.withLock { $0 } }
    var count: Int { arrivals.withLock { $0.count } }

    /// The samples of every frame from position `start` on, in order.
    func samples(from start: Int = 0) -> [Float] {
        arrivals.withLock { arrivals in
            var samples: [Float] = []
            samples.reserveCapacity(max(0, arrivals.count - start) * AudioFrame.sampleCount)
            for arrival in arrivals.dropFirst(start) {
                for i in 0..<AudioFrame.sampleCount { samples.append(arrival.frame.samples[i]) }
            }
            return samples
        }
    }

    /// Waits until at least `count` frames have arrived; false on timeout.
    func waitUntil(count: Int, within timeout: Duration = .seconds(5)) async -> Bool {
        await waitUntil(within: timeout) { $0.count >= count }
    }

    /// Waits until `condition` holds for the frames so far; false on timeout.
    func waitUntil(within timeout: Duration, _ condition: ([Arrival]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(all)
    }
}
