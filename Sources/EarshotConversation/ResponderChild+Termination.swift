import Glibc

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
