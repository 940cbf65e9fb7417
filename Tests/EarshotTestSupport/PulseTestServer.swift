public import Foundation
import EarshotLocking
import Synchronization

/// A private, headless PulseAudio server for tests: its own directory (runtime dir, home, socket,
/// logs), two null sinks and a virtual microphone, started in about 0.1 s.
///
/// - `micfeed`: a null sink; whatever is played into it comes out of `mic`.
/// - `mic` (the default source): a remap of `micfeed.monitor`, the microphone under test.
/// - `speaker` (the default sink): a null sink; `speaker.monitor` records what was played.
///
/// Samples pass bit-exact with a real-time clock. Every server has a unique directory, so tests
/// in parallel suites can each run their own. `stop()` (or deinit) ends it and removes the
/// directory; servers left behind by a crashed test run are removed by the next one.
public final class PulseTestServer: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether the PulseAudio server and its command-line clients are installed (`make deps`).
    public static var isAvailable: Bool { tools != nil }

    public let directory: String
    /// The address clients connect to: "unix:<directory>/native".
    public let serverAddress: String
    /// The environment for child processes that should talk to this server.
    public let environment: [String: String]
    /// The server's own log (`--log-target=file:`).
    public var logPath: String { directory + "/pa.log" }

    private let tools: Tools
    private let server = Locked<ChildProcess?>(nil)
    private let isStopped = Atomic<Bool>(false)
    private let fileCounter = Atomic<Int>(0)

    /// Starts a server and waits until it answers `pactl info`.
    public init() throws {
        guard let tools = Self.tools else {
            throw Failure(description: "pulseaudio, pactl, paplay and parec are needed (run `make deps`)")
        }
        self.tools = tools
        Self.removeAbandonedServers()
        var template = Array("/tmp/\(Self.directoryPrefix)\(getpid())-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw Failure(description: "cannot create a directory for the test server: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: created)
        serverAddress = "unix:\(directory)/native"
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PULSE_") }
        environment["PULSE_SERVER"] = serverAddress
        environment["XDG_RUNTIME_DIR"] = directory
        environment["HOME"] = directory
        // Daemons started here read no configuration file of the person running the tests.
        environment["XDG_CONFIG_HOME"] = directory + "/.config"
        self.environment = environment
        try Self.configuration(socket: directory + "/native")
            .write(toFile: directory + "/default.pa", atomically: true, encoding: .utf8)
        do {
            try launch()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The pid of the running server, nil while it is killed.
    public var pid: pid_t? { server.withLock { $0?.pid } }

    /// Kills the server (SIGKILL by default: it gets no chance to say goodbye) and returns once
    /// it is reaped and gone from /proc.
    public func kill(signal: Int32 = SIGKILL) {
        let process = server.withLock { process in
            defer { process = nil }
            return process
        }
        process?.terminate(with: signal)
    }

    /// Starts the server again (killing it first if it still runs), on the same socket and
    /// devices.
    public func restart() throws {
        kill()
        guard !answersInfo() else {
            throw Failure(description: "another server already answers on \(serverAddress)")
        }
        try launch()
    }

    /// Ends the server and removes its directory. Idempotent.
    public func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        kill(signal: SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `pactl` against this server; returns its output, or throws it when pactl fails.
    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        try run(tools.pactl, arguments)
    }

    /// Plays a sound file into `sink` (by default the virtual microphone's feed) in real time.
    /// Wait on the returned process to know when it has all been played.
    public func play(_ path: String, into sink: String = "micfeed") throws -> ChildProcess {
        try ChildProcess(tools.paplay, ["-d", sink, path], environment: environment, outputPath: uniquePath("paplay", "log"))
    }

    /// Records `source` (by default what the speaker plays) as 16 kHz mono s16le until the
    /// recording is stopped.
    public func record(from source: String = "speaker.monitor") throws -> PulseTestRecording {
        let path = uniquePath("record", "raw")
        let process = try ChildProcess(
            tools.parec,
            ["-d", source, "--raw", "--format=s16le", "--rate=16000", "--channels=1", "--latency-msec=10", path],
            environment: environment, outputPath: uniquePath("parec", "log")
        )
        return PulseTestRecording(process: process, path: path)
    }

    /// The tail of the server's log, for failure messages.
    public var logTail: String {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    // MARK: Internals

    private func launch() throws {
        let process = try ChildProcess(tools.pulseaudio, [
            "-n", "-F", directory + "/default.pa", "--daemonize=no", "--use-pid-file=no",
            "--exit-idle-time=-1", "--disallow-exit", "--realtime=no", "--high-priority=no",
            "--log-target=file:\(logPath)",
        ], environment: environment, outputPath: directory + "/pa.out")
        server.withLock { $0 = process }
        try? "\(process.pid)".write(toFile: directory + "/pulseaudio.pid", atomically: true, encoding: .utf8)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if answersInfo() { return }
            guard process.isRunning else { break }
            usleep(10_000)
        }
        kill()
        throw Failure(description: "the test PulseAudio server did not start; its log:\n\(logTail)")
    }

    private func answersInfo() -> Bool {
        (try? run(tools.pactl, ["info"])) != nil
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let outputPath = uniquePath("output", "txt")
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try ChildProcess(tool, arguments, environment: environment, outputPath: outputPath).wait()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
        return output
    }

    private func uniquePath(_ name: String, _ suffix: String) -> String {
        "\(directory)/\(name)-\(fileCounter.add(1, ordering: .relaxed).newValue).\(suffix)"
    }
}
