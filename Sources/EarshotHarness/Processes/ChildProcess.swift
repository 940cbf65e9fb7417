import EarshotBase
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid` on its own pid, so a
/// test knows exactly when it is gone (Foundation's `Process` reaps on its own schedule).
public final class ChildProcess: Sendable {
    public struct SpawnError: Error, CustomStringConvertible {
        public var executable: String
        public var errno: Int32
        public var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
    }

    public let pid: pid_t
    public let executable: String
    /// The exit status once reaped: the exit code, or 128 + the signal that killed it.
    private let exitStatus = Locked<Int32?>(nil)

    /// Starts `executable` (a path) with `arguments` in `environment`; stdin reads /dev/null,
    /// stdout goes to `outputPath` and stderr to `errorPath` (appended; each defaults to the other,
    /// then to /dev/null). `passing` descriptors become the child's 3, 4, … (as systemd passes
    /// sockets); pass descriptors numbered above the count, so that each is really duplicated.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        outputPath: String? = nil, errorPath: String? = nil, passing descriptors: [Int32] = []
    ) throws(SpawnError) {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let output = outputPath ?? errorPath ?? "/dev/null"
        let error = errorPath ?? output
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if error == output {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        for (offset, descriptor) in descriptors.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, 3 + Int32(offset))
        }
        Self.keepDescriptorsFromChildren()

        // The test runner may block or ignore signals; the child starts with the defaults.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(executable: executable, errno: result) }
        self.pid = pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// Marks every descriptor above stderr close-on-exec. Nothing else may reach a child: a
    /// server outliving a crashed test would hold the test runner's pipes open, and the runner
    /// waits for them forever. (glibc's `addclosefrom_np` is not visible from Swift.)
    private static func keepDescriptorsFromChildren() {
        guard let directory = opendir("/proc/self/fd") else { return }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor > 2 { descriptors.append(descriptor) }
        }
        closedir(directory)
        for descriptor in descriptors {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Whether it has not exited yet (reaps it if it has).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Waits for it to exit; returns its exit status.
    @discardableResult
    public func wait() -> Int32 { reap(blocking: true) ?? -1 }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Sends `signal` and waits until the process is reaped and gone from /proc; a process
    /// that ignores the signal for `patience` is killed.
    @discardableResult
    public func terminate(with signal: Int32 = SIGTERM, patience: Duration = .seconds(5)) -> Int32 {
        self.signal(signal)
        let deadline = ContinuousClock.now + patience
        while isRunning, ContinuousClock.now < deadline { usleep(1_000) }
        self.signal(SIGKILL)
        let status = wait()
        // Reaped means gone; the check guards against a pid already reused, which it gives up on.
        while ProcessTable.exists(pid), ContinuousClock.now < deadline { usleep(1_000) }
        return status
    }

    private func reap(blocking: Bool) -> Int32? {
        exitStatus.withLock { exitStatus in
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            } while result < 0 && errno == EINTR
            guard result == pid else { return result < 0 ? -1 : nil }
            let low = status & 0x7f
            exitStatus = low == 0 ? (status >> 8) & 0xff : 128 + low
            return exitStatus
        }
    }
}
