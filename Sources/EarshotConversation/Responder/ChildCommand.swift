import Glibc

/// A short command run to its end the way the responder is run (`/bin/sh -c COMMAND` in a process
/// group of its own, ``ResponderChild``), for the client's helpers such as dictation's typing
/// tool: no input, its output discarded, the tail of its stderr kept to say why it failed.
public enum ChildCommand {
    public enum Outcome: Equatable, Sendable {
        case succeeded
        /// The shell did not find the program (status 127).
        case notFound
        /// It exited with another status, was killed, or ran past the timeout (`status` nil);
        /// `errors` is the end of its stderr.
        case failed(status: Int32?, errors: String)
        /// It could not be started at all.
        case couldNotStart(String)
    }

    /// Runs `arguments` (program first, each quoted for the shell) with `environment`, stopping
    /// its process group after `timeout`.
    public static func run(_ arguments: [String], environment: [String: String], timeout: Duration) -> Outcome {
        let command = "exec " + arguments.map(shellQuoted).joined(separator: " ")
        var child: ResponderChild
        do {
            child = try ResponderChild(command: command, environment: environment)
        } catch {
            return .couldNotStart(error.description)
        }
        child.closeInput()
        var errors = ResponderOutputTail()
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while child.output >= 0 || child.errors >= 0 {
            guard ContinuousClock.now < deadline else {
                child.stopGroup()
                child.closeAll()
                return .failed(status: nil, errors: errors.text)
            }
            var watched = [child.output, child.errors].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&watched, nfds_t(watched.count), 50)
            for entry in watched where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == child.errors { errors.append(buffer[..<count]) }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    if entry.fd == child.output { child.closeOutput() } else { child.closeErrors() }
                }
            }
        }
        while child.exit == nil, ContinuousClock.now < deadline {
            child.reapIfExited()
            if child.exit == nil { usleep(1_000) }
        }
        if child.exit == nil { child.stopGroup() }
        switch child.exit {
        case .exited(0)?: return .succeeded
        case .exited(127)?: return .notFound
        case .exited(let status)?: return .failed(status: status, errors: errors.text)
        default: return .failed(status: nil, errors: errors.text)
        }
    }

    /// `text` as one word for `sh`: in single quotes, each of its own single quotes closed,
    /// escaped and reopened.
    public static func shellQuoted(_ text: String) -> String {
        "'" + text.map { $0 == "'" ? #"'\''"# : String($0) }.joined() + "'"
    }
}
