import EarshotTestSupport
import Foundation

/// A real `systemd --user`, private to one test, on a machine not booted with systemd (a
/// container or sandbox, where the tests run as root): in its own mount namespace, with /run a
/// fresh tmpfs holding what a booted system has there (/run/systemd/system, the inaccessible
/// nodes sandboxing mounts, /run/user/0 as $XDG_RUNTIME_DIR), confined to a cgroup of its own
/// that is removed afterwards, with a headless PulseAudio at $XDG_RUNTIME_DIR/pulse/native as on
/// a desktop. Units go to $XDG_CONFIG_HOME/systemd/user.
final class PrivateUserManager {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let runtimeDirectory = "/run/user/0"
    /// A prefix inside the manager's /run where `installing` puts files, as `make install`
    /// would: a service with `PrivateTmp=yes` cannot see a build or checkout under /tmp (a
    /// clone there), but it sees /run.
    static let prefix = "/run/earshot-prefix"
    private static let tools = ["/usr/bin/unshare", "/usr/bin/nsenter", "/lib/systemd/systemd", "/usr/bin/systemctl"]

    /// Root, not booted with systemd (a booted system's cgroups belong to its own manager), the
    /// tools there, and a writable cgroup v1 systemd hierarchy for the manager's own cgroup.
    static var isPossible: Bool {
        getuid() == 0 && PulseTestServer.isAvailable
            && !FileManager.default.fileExists(atPath: "/run/systemd/system")
            && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            && access("/sys/fs/cgroup/systemd/cgroup.procs", W_OK) == 0
    }

    let directory: String
    private let cgroup: String
    private let manager: ChildProcess

    /// Starts the manager with `units` (file name → contents) installed and `installing` (path
    /// under ``prefix`` → the file or directory to copy there), and waits until it runs.
    init(units: [String: String], installing: [String: String] = [:]) throws {
        directory = NSTemporaryDirectory() + "earshot-user-systemd-" + UUID().uuidString.prefix(8)
        cgroup = "earshot-test-" + UUID().uuidString.prefix(8)
        let unitDirectory = directory + "/config/systemd/user"
        try FileManager.default.createDirectory(atPath: unitDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        for (name, text) in units {
            let path = unitDirectory + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        // The distribution's own PulseAudio user units would fight the test's server for its socket.
        for name in ["pulseaudio.service", "pulseaudio.socket", "pulseaudio-x11.service"] {
            try FileManager.default.createSymbolicLink(atPath: unitDirectory + "/" + name, withDestinationPath: "/dev/null")
        }
        // As PulseTestServer's: a virtual microphone `mic` fed by the sink `micfeed`.
        try """
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(Self.runtimeDirectory)/pulse/native
            load-module module-null-sink sink_name=speaker rate=16000 channels=1 norewinds=1
            load-module module-null-sink sink_name=micfeed rate=16000 channels=1 norewinds=1
            load-module module-remap-source source_name=mic master=micfeed.monitor
            set-default-sink speaker
            set-default-source mic

            """.write(toFile: directory + "/default.pa", atomically: true, encoding: .utf8)
        try Self.script(directory: directory, cgroup: cgroup, installing: installing)
            .write(toFile: directory + "/start.sh", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PULSE_") && !$0.key.hasPrefix("XDG_") }
        environment["HOME"] = directory + "/home"
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        manager = try ChildProcess(
            "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", directory + "/start.sh"],
            environment: environment, outputPath: directory + "/manager.log"
        )
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if run("/usr/bin/systemctl", "--user", "is-system-running").output.hasPrefix("running") { return }
            guard manager.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw Failure(description: "systemd --user did not start; its output:\n\(contents(of: "manager.log"))")
    }

    deinit { stop() }

    /// The PulseAudio server's pid (it runs in the manager's mount namespace).
    var pulseAudioPid: pid_t? { pid_t(contents(of: "pulse.pid").trimmingCharacters(in: .whitespacesAndNewlines)) }

    /// Runs a command in the manager's mount namespace, with its environment.
    @discardableResult
    func run(_ command: String...) -> (status: Int32, output: String) {
        let outputPath = directory + "/run-\(UUID().uuidString.prefix(8)).txt"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let environment = [
            "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": Self.runtimeDirectory, "HOME": directory + "/home",
            "XDG_CONFIG_HOME": directory + "/config", "SYSTEMD_PAGER": "",
        ]
        guard let process = try? ChildProcess(
            "/usr/bin/nsenter", ["--target", "\(manager.pid)", "--mount", "--"] + command,
            environment: environment, outputPath: outputPath
        ) else { return (-1, "") }
        let status = process.wait()
        return (status, fileText(outputPath))
    }

    /// A unit's property, as `systemctl --user show -p NAME --value` prints it.
    func property(_ name: String, of unit: String) -> String {
        run("/usr/bin/systemctl", "--user", "show", unit, "-p", name, "--value").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until `unit`'s property `name` satisfies `predicate`; returns the last value seen.
    @discardableResult
    func wait(for name: String, of unit: String, timeout: Duration, until predicate: (String) -> Bool) -> String {
        let deadline = ContinuousClock.now + timeout
        var value = property(name, of: unit)
        while !predicate(value), ContinuousClock.now < deadline {
            usleep(100_000)
            value = property(name, of: unit)
        }
        return value
    }

    /// Ends the manager, its services and PulseAudio, and removes the cgroup and files.
    func stop() {
        if manager.isRunning {
            run("/usr/bin/systemctl", "--user", "exit")
            manager.terminate(with: SIGTERM, patience: .seconds(5))
        }
        if let pulse = pulseAudioPid { kill(pulse, SIGCONT); kill(pulse, SIGKILL) }
        for hierarchy in (try? FileManager.default.contentsOfDirectory(atPath: "/sys/fs/cgroup")) ?? [] {
            Self.removeCgroup("/sys/fs/cgroup/\(hierarchy)/\(cgroup)")
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func contents(of name: String) -> String {
        fileText(directory + "/" + name)
    }

    /// Kills what is left in a cgroup tree and removes it, deepest first.
    private static func removeCgroup(_ path: String) {
        guard let children = FileManager.default.enumerator(atPath: path) else { return }
        var directories = [path]
        for case let child as String in children where child.hasSuffix("cgroup.procs") {
            let directory = path + "/" + (child as NSString).deletingLastPathComponent
            if directory != path + "/" { directories.append(directory) }
            let procs = fileText(directory + "/cgroup.procs")
            for pid in procs.split(separator: "\n").compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        }
        usleep(100_000)
        for directory in directories.sorted(by: { $0.count > $1.count }) { rmdir(directory) }
    }

    private static func script(directory: String, cgroup: String, installing: [String: String]) -> String {
        let copies = installing.sorted { $0.key < $1.key }.map { target, source in
            let destination = prefix + "/" + target
            return "mkdir -p '\((destination as NSString).deletingLastPathComponent)' && cp -r '\(source)' '\(destination)'"
        }.joined(separator: "\n")
        return """
        set -e
        mount -t tmpfs -o mode=0755 tmpfs /run
        mkdir -p /run/systemd/system \(runtimeDirectory)
        \(copies)
        mount -t tmpfs -o mode=0700 tmpfs \(runtimeDirectory)
        mkdir -m 0755 /run/systemd/inaccessible
        cd /run/systemd/inaccessible
        install -m 0000 /dev/null reg
        mkdir -m 0000 dir
        mkfifo -m 0000 fifo
        mknod -m 0000 chr c 0 0
        mknod -m 0000 blk b 0 0
        export XDG_RUNTIME_DIR=\(runtimeDirectory)
        mkdir -m 0700 \(runtimeDirectory)/pulse
        cd /
        pulseaudio -n -F \(directory)/default.pa --daemonize=no --use-pid-file=no --exit-idle-time=-1 \\
            --disallow-exit --realtime=no --high-priority=no --log-target=file:\(directory)/pa.log &
        echo $! > \(directory)/pulse.pid
        for hierarchy in systemd unified; do
            [ -d /sys/fs/cgroup/$hierarchy ] || continue
            mkdir /sys/fs/cgroup/$hierarchy/\(cgroup)
            echo $$ > /sys/fs/cgroup/$hierarchy/\(cgroup)/cgroup.procs
        done
        exec /lib/systemd/systemd --user

        """
    }
}
