import Glibc

/// The responder command's process: `/bin/sh -c COMMAND`, leader of a process group of its own,
/// with pipes for its stdin, stdout and stderr. The parent's ends are non-blocking and
/// close-on-exec; a descriptor is -1 once closed.
struct ResponderChild {
    let pid: pid_t
    var input: Int32
    var output: Int32
    var errors: Int32
    /// Set once the shell has been reaped.
    var exit: ResponderExit?

    init(command: String, environment: [String: String]) throws(ResponderError) {
        var pipes: [(read: Int32, write: Int32)] = []
        defer {
            // The child's ends are its own now (or, on failure, nobody's).
            for (index, pipe) in pipes.enumerated() { close(index == 0 ? pipe.read : pipe.write) }
        }
        for _ in 0..<3 {
            guard let pipe = Self.makePipe() else {
                let code = errno
                pipes.forEach { close($0.read); close($0.write) }
                pipes = []
                throw ResponderError.couldNotStart(command: command, errno: code)
            }
            pipes.append(pipe)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0].read, 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1].write, 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2].write, 2)
        _ = Self.addCloseFrom?(&actions, 3)

        // The daemon may block or ignore signals (this thread blocks SIGPIPE); the command starts
        // with the defaults, in its own process group.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let arguments: [String] = ["sh", "-c", command]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else {
            pipes.forEach { close($0.read); close($0.write) }
            pipes = []
            throw ResponderError.couldNotStart(command: command, errno: result)
        }
        self.pid = pid
        input = pipes[0].write
        output = pipes[1].read
        errors = pipes[2].read
        for descriptor in [input, output, errors] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    /// A close-on-exec pipe whose ends are above the standard streams, so that the child's
    /// `dup2`s onto 0, 1 and 2 cannot overwrite one another (a daemon may have closed stdin).
    private static func makePipe() -> (read: Int32, write: Int32)? {
        guard let pipe = ResponderPipe.make() else { return nil }
        var ends = [pipe.read, pipe.write]
        for index in ends.indices where ends[index] < 3 {
            let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            close(ends[index])
            ends[index] = moved
        }
        guard ends.allSatisfy({ $0 >= 0 }) else {
            ends.filter { $0 >= 0 }.forEach { close($0) }
            return nil
        }
        return (ends[0], ends[1])
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), looked up at run time since
    /// Swift's Glibc module does not declare it: descriptors that other code in the daemon opened
    /// without close-on-exec do not reach the command.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
        )
    }()
}
