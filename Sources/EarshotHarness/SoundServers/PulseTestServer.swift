public import Foundation
import Synchronization

/// A private, headless PulseAudio server for tests, benchmarks and the demo (see
/// `TestSoundServer` for its devices), started in about 0.1 s.
public final class PulseTestServer: TestSoundServer {
    public typealias Failure = SoundServerFailure

    /// Whether the PulseAudio server and its command-line clients are installed (`make deps`).
    public static var isAvailable: Bool { pulseaudio != nil && SoundServerClients.tools != nil }

    static let pulseaudio = SoundServerClients.executable("pulseaudio")
    static let directoryPrefix = "earshot-pa-"

    public var kind: SoundServerKind { .pulseAudio }
    public var directory: String { privateDirectory.path }
    public let serverAddress: String
    public let environment: [String: String]
    public let clients: SoundServerClients
    /// The server's own log (`--log-target=file:`).
    public var logPath: String { directory + "/pa.log" }
    public var logTail: String { lastLines(of: logPath) }

    private let privateDirectory: SoundServerDirectory
    private let server = ServingProcess()
    private let isStopped = Atomic<Bool>(false)

    /// Starts a server and waits until it answers `pactl info`.
    public init() throws {
        guard Self.pulseaudio != nil else {
            throw Failure(description: "pulseaudio, pactl, paplay and parec are needed (run `make deps`)")
        }
        privateDirectory = try SoundServerDirectory(prefix: Self.directoryPrefix)
        let directory = privateDirectory.path
        serverAddress = "unix:\(directory)/native"
        environment = privateDirectory.environment(pulseServer: serverAddress)
        do {
            clients = try SoundServerClients(directory: directory, environment: environment)
        } catch {
            privateDirectory.remove()
            throw error
        }
        do {
            try Self.configuration(socket: directory + "/native")
                .write(toFile: directory + "/default.pa", atomically: true, encoding: .utf8)
            try launch()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    public var pid: pid_t? { server.pid }

    public func kill(signal: Int32) {
        server.kill(signal: signal)
    }

    public func restart() throws {
        try server.restart(clients, at: serverAddress, launch: launch)
    }

    public func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        kill(signal: SIGTERM)
        privateDirectory.remove()
    }

    // MARK: Internals

    private func launch() throws {
        let process = try ChildProcess(Self.pulseaudio ?? "pulseaudio", [
            "-n", "-F", directory + "/default.pa", "--daemonize=no", "--use-pid-file=no",
            "--exit-idle-time=-1", "--disallow-exit", "--realtime=no", "--high-priority=no",
            "--log-target=file:\(logPath)",
        ], environment: environment, outputPath: directory + "/pa.out")
        server.hold(process)
        privateDirectory.record(pids: [process.pid])
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if clients.serverAnswers { return }
            guard process.isRunning else { break }
            usleep(10_000)
        }
        kill()
        throw Failure(description: "the test PulseAudio server did not start; its log:\n\(logTail)")
    }
}
