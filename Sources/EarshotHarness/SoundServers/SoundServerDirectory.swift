import Foundation

/// The private directory a test sound server lives in: runtime directory, home, sockets,
/// configuration and logs. Its name carries the test process's pid, and it lists the pids of
/// the server's processes, so that a later run can end servers whose test process died without
/// stopping them.
struct SoundServerDirectory: Sendable {
    let path: String

    /// Removes what crashed runs left under `prefix`, then creates a new directory.
    init(prefix: String) throws(SoundServerFailure) {
        Self.removeAbandoned(prefix: prefix)
        var template = Array("/tmp/\(prefix)\(getpid())-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw SoundServerFailure(description: "cannot create a directory for the test server: \(String(cString: strerror(errno)))")
        }
        path = String(cString: created)
    }

    /// This process's environment without the variables of any other sound server (`PULSE_*`,
    /// and those in `alsoRemoving`), with the runtime directory, home and configuration inside
    /// this directory: clients write their cookies here, and servers read no configuration of
    /// the person running the tests.
    func environment(alsoRemoving prefixes: [String] = [], pulseServer: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { variable in
            !(["PULSE_"] + prefixes).contains { variable.key.hasPrefix($0) }
        }
        environment["PULSE_SERVER"] = pulseServer
        environment["XDG_RUNTIME_DIR"] = path
        environment["HOME"] = path
        environment["XDG_CONFIG_HOME"] = path + "/.config"
        return environment
    }

    /// Notes the server's running processes, for `removeAbandoned`.
    func record(pids: [pid_t]) {
        try? pids.map(String.init).joined(separator: "\n").write(toFile: path + "/pids", atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Kills the processes of servers whose test process died without stopping them, and removes
    /// their directories. A directory counts as abandoned only when the pid in its name is gone;
    /// a pid listed in it is killed only while its command line still names the directory.
    static func removeAbandoned(prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/tmp") else { return }
        for name in names where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            guard let owner, !ProcessTable.exists(owner) else { continue }
            let directory = "/tmp/\(name)"
            let listed = fileText(directory + "/pids")
            for pid in listed.split(separator: "\n").compactMap({ pid_t($0) }) {
                // The command line's arguments are separated by NULs.
                let commandLine = ProcessTable.readSmallFile("/proc/\(pid)/cmdline")?.replacingOccurrences(of: "\0", with: " ")
                if commandLine?.contains(directory + "/") == true { kill(pid, SIGKILL) }
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
