import EarshotBase
public import Foundation
import Synchronization

/// A private, headless PipeWire for tests, as Debian 12's desktop runs it: a session bus of its
/// own (dbus-daemon), pipewire, WirePlumber and pipewire-pulse, the PulseAudio server the daemon
/// talks to, with the devices of every `TestSoundServer`. No real devices, nothing but the
/// private directory's sockets.
///
/// `kill` and `restart` act on pipewire-pulse alone, the server at `serverAddress`, as when a
/// person restarts it (`systemctl --user restart pipewire-pulse`): the graph and the session
/// manager stay, and the devices come back when it starts again.
public final class PipeWireTestServer: TestSoundServer {
    struct Programs: Sendable {
        var dbusDaemon: String
        var pipewire: String
        var wireplumber: String
        var pipewirePulse: String
    }

    static let programs: Programs? = {
        let find = SoundServerClients.executable
        guard let dbusDaemon = find("dbus-daemon"), let pipewire = find("pipewire"), let wireplumber = find("wireplumber"),
              let pipewirePulse = find("pipewire-pulse") else { return nil }
        return Programs(dbusDaemon: dbusDaemon, pipewire: pipewire, wireplumber: wireplumber, pipewirePulse: pipewirePulse)
    }()

    /// Whether PipeWire, WirePlumber, pipewire-pulse, dbus-daemon and the PulseAudio command-line
    /// clients are installed (`make deps`).
    public static var isAvailable: Bool { programs != nil && SoundServerClients.tools != nil }

    static let directoryPrefix = "earshot-pw-"

    public var kind: SoundServerKind { .pipeWire }
    public var directory: String { privateDirectory.path }
    public let serverAddress: String
    public let environment: [String: String]
    public let clients: SoundServerClients
    public var logTail: String {
        ["pipewire-pulse", "wireplumber", "pipewire"].map { "\($0):\n" + lastLines(of: log($0), 10) }.joined(separator: "\n")
    }

    private let programs: Programs
    private let privateDirectory: SoundServerDirectory
    /// dbus-daemon, pipewire and WirePlumber, in the order they started.
    private let session = Locked<[ChildProcess]>([])
    private let pulseServer = ServingProcess()
    private let isStopped = Atomic<Bool>(false)

    /// Starts the bus, pipewire, WirePlumber and pipewire-pulse, and waits until the PulseAudio
    /// server answers with its devices and defaults.
    public init() throws {
        guard let programs = Self.programs else {
            throw SoundServerFailure(description: "pipewire, wireplumber, pipewire-pulse and dbus-daemon are needed (run `make deps`)")
        }
        self.programs = programs
        privateDirectory = try SoundServerDirectory(prefix: Self.directoryPrefix)
        let directory = privateDirectory.path
        serverAddress = "unix:\(directory)/native"
        var environment = privateDirectory.environment(alsoRemoving: ["PIPEWIRE_", "WIREPLUMBER_", "DBUS_", "JACK_"], pulseServer: serverAddress)
        environment["PIPEWIRE_RUNTIME_DIR"] = directory
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
        // WirePlumber keeps the defaults and streams it has seen here, not in the tester's state.
        environment["XDG_STATE_HOME"] = directory + "/.local/state"
        self.environment = environment
        do {
            clients = try SoundServerClients(directory: directory, environment: environment)
        } catch {
            privateDirectory.remove()
            throw error
        }
        do {
            try writeConfiguration()
            try startSession()
            try launchPulseServer()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    public var pid: pid_t? { pulseServer.pid }

    public func kill(signal: Int32) {
        pulseServer.kill(signal: signal)
    }

    public func restart() throws {
        try pulseServer.restart(clients, at: serverAddress, launch: launchPulseServer)
    }

    public func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        kill(signal: SIGTERM)
        let processes = session.withLock { processes in
            defer { processes = [] }
            return processes
        }
        for process in processes.reversed() { process.terminate(with: SIGTERM) }
        privateDirectory.remove()
    }

    // MARK: Internals

    private func log(_ program: String) -> String { "\(directory)/\(program).log" }

    private func writeConfiguration() throws {
        let scripts = directory + "/.config/wireplumber/main.lua.d"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        for (path, text) in [
            (directory + "/dbus.conf", Self.busConfiguration(socket: directory + "/bus")),
            (directory + "/pipewire.conf", Self.pipewireConfiguration),
            (directory + "/wireplumber.conf", Self.wireplumberConfiguration),
            (scripts + "/90-enable-all.lua", Self.wireplumberMainScript),
            (directory + "/pipewire-pulse.conf", Self.pulseConfiguration(socket: directory + "/native")),
        ] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// The bus, then pipewire, each once its predecessor's socket is there, then WirePlumber.
    private func startSession() throws {
        try start(programs.dbusDaemon, ["--config-file=\(directory)/dbus.conf", "--nofork", "--nopidfile"], log: "dbus-daemon")
        try waitForSocket(directory + "/bus", of: "dbus-daemon")
        try start(programs.pipewire, ["-c", directory + "/pipewire.conf"], log: "pipewire")
        try waitForSocket(directory + "/pipewire-0", of: "pipewire")
        try start(programs.wireplumber, ["-c", directory + "/wireplumber.conf"], log: "wireplumber")
    }

    private func start(_ program: String, _ arguments: [String], log name: String) throws {
        let process = try ChildProcess(program, arguments, environment: environment, outputPath: log(name))
        session.withLock { $0.append(process) }
        recordPids()
    }

    private func recordPids() {
        let pids = session.withLock { $0.map(\.pid) } + [pid].compactMap { $0 }
        privateDirectory.record(pids: pids)
    }

    private func waitForSocket(_ path: String, of program: String) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: path) { return }
            usleep(2_000)
        }
        throw SoundServerFailure(description: "\(program) did not open \(path); logs:\n\(logTail)")
    }

    /// Starts pipewire-pulse and waits until it serves the devices with `speaker` and `mic` as
    /// the defaults. WirePlumber remembers the defaults chosen before a restart, so they are set
    /// every time, once WirePlumber's metadata can take them.
    private func launchPulseServer() throws {
        let process = try ChildProcess(
            programs.pipewirePulse, ["-c", directory + "/pipewire-pulse.conf"], environment: environment,
            outputPath: log("pipewire-pulse")
        )
        pulseServer.hold(process)
        recordPids()
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, process.isRunning {
            if let info = try? clients.pactl(["info"]) {
                if info.contains("Default Sink: speaker\n"), info.contains("Default Source: mic\n") { return }
                _ = try? clients.pactl(["set-default-sink", "speaker"])
                _ = try? clients.pactl(["set-default-source", "mic"])
            }
            usleep(5_000)
        }
        kill()
        throw SoundServerFailure(description: "the test pipewire-pulse did not start; logs:\n\(logTail)")
    }
}
