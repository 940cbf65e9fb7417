import EarshotBase
import EarshotHarness
import Foundation
import Synchronization

/// A private headless PulseAudio, the real `earshotd` on it, and one client subscribed to
/// `topics`. Everything it started ends when it is dropped (or, on a signal, by `ChildGuard`).
final class SpeechSession {
    let sound: PulseTestServer
    let daemon: ChildProcess
    let client: LineSocket
    /// Events read while waiting for responses and states, in order.
    private(set) var events: [[String: Any]] = []

    init(daemonArguments: [String], topics: [String]) throws {
        let daemonBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("earshotd").path
        guard FileManager.default.isExecutableFile(atPath: daemonBinary) else {
            throw LiveBench.Failure(description: "earshotd is not built next to earshot-bench (\(daemonBinary))")
        }
        let sound = try PulseTestServer()
        ChildGuard.register(sound.pid)
        let socketPath = sound.directory + "/earshot.sock"
        let daemon: ChildProcess
        do {
            daemon = try ChildProcess(
                daemonBinary, ["--socket", socketPath, "--listen"] + daemonArguments
                    + (ProcessInfo.processInfo.environment["EARSHOT_BENCH_KEEP_LOG"] == nil ? [] : ["--verbose"]),
                environment: sound.environment, outputPath: sound.directory + "/earshotd.log"
            )
        } catch {
            Self.end(sound: sound, daemon: nil)
            throw error
        }
        ChildGuard.register(daemon.pid)
        do {
            client = try LiveBench.waitForSocket(socketPath, timeout: 30)
            let quoted = topics.map { "\"\($0)\"" }.joined(separator: ",")
            var early: [[String: Any]] = []
            let response = try client.request(#"{"id":"sub","cmd":"subscribe","topics":[\#(quoted)]}"#, events: &early)
            guard response["ok"] as? Bool == true else {
                throw LiveBench.Failure(description: "subscribe failed: \(response)")
            }
        } catch {
            Self.end(sound: sound, daemon: daemon)
            throw error
        }
        self.sound = sound
        self.daemon = daemon
    }

    deinit { Self.end(sound: sound, daemon: daemon) }

    private static func end(sound: PulseTestServer, daemon: ChildProcess?) {
        if let daemon {
            _ = daemon.terminate()
            ChildGuard.unregister(daemon.pid)
        }
        // EARSHOT_BENCH_KEEP_LOG=PATH keeps the daemon's log, to read a run's timeline.
        if let kept = ProcessInfo.processInfo.environment["EARSHOT_BENCH_KEEP_LOG"] {
            try? FileManager.default.removeItem(atPath: kept)
            try? FileManager.default.copyItem(atPath: sound.directory + "/earshotd.log", toPath: kept)
        }
        let pid = sound.pid
        sound.stop()
        ChildGuard.unregister(pid)
    }

    /// Sends a request; returns its response.
    @discardableResult
    func request(_ line: String) throws -> [String: Any] {
        try client.request(line, events: &events)
    }

    /// Reads events until one satisfies `stop`; returns it, or nil after `timeout`.
    @discardableResult
    func wait(timeout: TimeInterval, for stop: ([String: Any]) -> Bool) -> [String: Any]? {
        let read = client.events(timeout: timeout, until: stop)
        events += read
        return read.last.flatMap { stop($0) ? $0 : nil }
    }

    /// Waits for the turn to reach `state`.
    @discardableResult
    func wait(timeout: TimeInterval, forState state: String) -> [String: Any]? {
        wait(timeout: timeout) { $0["event"] as? String == "state" && $0["state"] as? String == state }
    }

    /// Forgets the events read so far.
    func clearEvents() {
        events.removeAll()
    }

    /// The daemon's log, for failure messages.
    var logTail: String {
        let log = (try? String(contentsOfFile: sound.directory + "/earshotd.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(15).joined(separator: "\n")
    }
}

/// Maps the sample indices of a growing `parec` recording (16 kHz) to wall time:
/// wall(i) ≈ offset + i / 16000.
///
/// parec writes in real time, so every look at the file bounds the offset from above: the
/// samples already written were captured no later than the look, hence
/// offset ≤ look time − samples so far / 16000. A thread looks every ~2 ms and keeps the
/// smallest bound. The bound is tight when a look falls just after parec wrote a fragment, so
/// what remains is parec's own delivery delay (it asks for 10 ms fragments): the mapping places
/// sounds up to ~10 ms late, never early.
final class RecordingClock: Sendable {
    static let sampleRate = 16_000.0

    let recording: PulseTestRecording
    private let bounds = Locked<[Double]>([])
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching `recording` (just started).
    init(_ recording: PulseTestRecording) {
        self.recording = recording
        // Weak, so that a clock dropped without `stop()` ends its thread too.
        let thread = Thread { [weak self] in
            while let clock = self, clock.running.load(ordering: .acquiring) {
                clock.look()
                usleep(2_000)
            }
            self?.finished.signal()
        }
        thread.start()
    }

    deinit {
        running.store(false, ordering: .releasing)
    }

    /// Now, in Unix seconds (the clock the daemon's `wall` uses).
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Stops watching and the recording; returns what was recorded.
    func stop() -> [Float] {
        if running.exchange(false, ordering: .acquiringAndReleasing) { finished.wait() }
        return recording.stop()
    }

    /// The best estimate of the offset so far.
    var offset: Double {
        bounds.withLock { $0.min() ?? .nan }
    }

    /// How far the median look lay above the best one, in seconds: the spread of parec's
    /// delivery, a measure of how loose a single look would have been.
    var medianSlack: Double {
        bounds.withLock { bounds in
            guard let best = bounds.min() else { return .nan }
            return bounds.sorted()[bounds.count / 2] - best
        }
    }

    /// The wall time of sample `index`.
    func wall(_ index: Int) -> Double {
        offset + Double(index) / Self.sampleRate
    }

    /// The loudest of the last `count` samples written so far (0…1).
    func recentPeak(count: Int) -> Float {
        guard let file = FileHandle(forReadingAtPath: recording.path) else { return 0 }
        defer { try? file.close() }
        guard let end = try? file.seekToEnd(), end >= 2 else { return 0 }
        let bytes = min(UInt64(count * 2), end - end % 2)
        try? file.seek(toOffset: end - end % 2 - bytes)
        guard let data = try? file.read(upToCount: Int(bytes)) else { return 0 }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).reduce(Float(0)) { peak, index in
                max(peak, abs(Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32768))
            }
        }
    }

    private func look() {
        var info = stat()
        guard stat(recording.path, &info) == 0, info.st_size >= 2 else { return }
        // The time is taken after the look: the bound must hold for what was seen.
        let bound = Self.now() - Double(info.st_size / 2) / Self.sampleRate
        bounds.withLock { $0.append(bound) }
    }
}

/// Ends the processes a benchmark started when the benchmark itself is told to stop (SIGINT,
/// SIGTERM, SIGHUP): deinitialisers never run then, and an `earshotd` whose sound server
/// vanished would retry forever. Errors are handled by the owners' `defer`s instead.
enum ChildGuard {
    private static let children = Locked<Set<pid_t>>([])
    /// Installs the handlers, which last as long as the sources returned are kept.
    static func install() -> [any DispatchSourceSignal] {
        // A daemon that dies mid-write would otherwise end the benchmark without any cleanup.
        signal(SIGPIPE, SIG_IGN)
        return [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { endAll(exitingWith: 128 + number) }
            source.resume()
            return source
        }
    }

    static func register(_ pid: pid_t?) {
        guard let pid else { return }
        _ = children.withLock { $0.insert(pid) }
    }

    static func unregister(_ pid: pid_t?) {
        guard let pid else { return }
        _ = children.withLock { $0.remove(pid) }
    }

    private static func endAll(exitingWith status: Int32) -> Never {
        for pid in children.withLock({ $0 }) { kill(pid, SIGKILL) }
        // The test servers' directories carry the owner's pid; a later run would remove them too.
        let owner = "-\(getpid())-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("earshot-") && name.contains(owner) {
            try? FileManager.default.removeItem(atPath: "/tmp/" + name)
        }
        print("earshot-bench: interrupted; the processes it started are ended")
        exit(status)
    }
}
