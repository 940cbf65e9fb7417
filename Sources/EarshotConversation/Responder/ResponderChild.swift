import EarshotBase
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

extension ResponderChild {
    /// Reaps the shell if it has exited, without waiting.
    mutating func reapIfExited() {
        guard exit == nil else { return }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, WNOHANG)
        } while result < 0 && errno == EINTR
        if result == pid {
            exit = ResponderExit(waitStatus: status)
        } else if result < 0 {
            // ECHILD: someone else reaped it (a SIGCHLD set to SIG_IGN); its status is lost.
            exit = .signaled(SIGKILL)
        }
    }

    /// Stops the command and everything it started: SIGTERM to its process group, then, if any
    /// of it is still there after `grace`, SIGKILL; the shell is reaped before this returns.
    mutating func stopGroup(grace: Duration = .seconds(1)) {
        kill(-pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            reapIfExited()
            if exit != nil, !groupHasLiveMembers() { return }
            usleep(5_000)
        }
        kill(-pid, SIGKILL)
        while exit == nil {
            reapIfExited()
            if exit == nil { usleep(1_000) }
        }
    }

    /// Whether a process of the group is still running. Zombies do not count: orphans are reaped
    /// by init, and where init does not reap (some containers), they would look alive forever.
    /// The group's number cannot be reused while it has members, zombies included.
    private func groupHasLiveMembers() -> Bool {
        guard kill(-pid, 0) == 0 else { return errno != ESRCH }
        guard let directory = opendir("/proc") else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let member = pid_t(name), let (state, group) = Self.stateAndGroup(of: member) else { continue }
            if group == pid, state != "Z" { return true }
        }
        return false
    }

    /// The state letter and process group from /proc/PID/stat.
    private static func stateAndGroup(of process: pid_t) -> (Character, pid_t)? {
        let descriptor = open("/proc/\(process)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let stat = String(decoding: bytes[..<count], as: UTF8.self)
        // "PID (COMMAND) STATE PPID PGRP …", where COMMAND may hold spaces and parentheses.
        guard let commandEnd = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 2, let state = fields[0].first, let group = pid_t(fields[2]) else { return nil }
        return (state, group)
    }

    mutating func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    mutating func closeOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    mutating func closeErrors() {
        if errors >= 0 { close(errors) }
        errors = -1
    }

    mutating func closeAll() {
        closeInput()
        closeOutput()
        closeErrors()
    }
}

/// Pipes for the responder, created close-on-exec atomically with `pipe2`: another thread of the
/// daemon starting a process at the same moment must not inherit them (it would hold the
/// command's stdout open). Swift's Glibc module hides `pipe2` (it is a GNU extension), so it is
/// looked up at run time.
enum ResponderPipe {
    /// A pipe's (read, write) ends, or nil with `errno` set.
    static func make(nonBlocking: Bool = false) -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        if let pipe2 {
            guard pipe2(&ends, flags) == 0 else { return nil }
        } else {
            guard pipe(&ends) == 0 else { return nil }
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                if nonBlocking { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            }
        }
        return (ends[0], ends[1])
    }

    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()
}

/// The last `limit` bytes of the responder's stderr: enough to say why it failed, however much
/// it logged before.
struct ResponderOutputTail {
    let limit: Int
    private var bytes: [UInt8] = []
    private var wasCut = false

    init(limit: Int = 2048) {
        self.limit = limit
    }

    mutating func append(_ chunk: some Sequence<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > limit {
            bytes.removeFirst(bytes.count - limit)
            wasCut = true
        }
    }

    /// The kept text, trimmed. When older output was dropped it starts at a line's beginning
    /// where there is one, since a line cut in half reads as nonsense.
    var text: String {
        var kept = bytes[...]
        if wasCut {
            if let newline = kept.firstIndex(of: UInt8(ascii: "\n")), newline < kept.endIndex - 1 {
                kept = kept[(newline + 1)...]
            } else {
                kept = kept.drop { $0 & 0xC0 == 0x80 }
            }
        }
        let text = String(decoding: kept, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        return String(trimmed.prefix(trimmed.count - trimmed.reversed().prefix { $0.isWhitespace }.count))
    }
}

/// Cuts the responder's stdout into lines of text: at each newline (a carriage return before it
/// is dropped), and every `limit` bytes of a longer line, so that a command printing without
/// newlines cannot make the buffer grow without bound. A cut never splits a UTF-8 character;
/// invalid bytes become U+FFFD.
struct ResponderLineBuffer {
    private var splitter: LineSplitter

    init(limit: Int = 64 * 1024) {
        splitter = LineSplitter(maximumLength: limit, longLines: .cut)
    }

    /// Adds bytes as they were read and returns the lines they completed.
    mutating func append(_ chunk: some Sequence<UInt8>) -> [String] {
        splitter.append(chunk)
        var lines: [String] = []
        while case .line(let line)? = splitter.next() { lines.append(Self.text(line)) }
        return lines
    }

    /// What is left (a last line without a newline), if anything, and starts over empty.
    mutating func finish() -> String? {
        splitter.finish().map(Self.text)
    }

    private static func text(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
    }
}
