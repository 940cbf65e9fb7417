import EarshotTestSupport
import Foundation

/// A home of its own for a daemon under test: `HOME`, `XDG_RUNTIME_DIR` and the XDG base
/// directories all inside one scratch directory (the daemon's log outside it), so a test can
/// see every file the daemon wrote.
final class PrivateHome {
    let root: String
    let home: String
    let runtime: String
    /// Beside `root`, not in it: the daemon's log and the CLI's output.
    let logs: String

    init() throws {
        let scratch = NSTemporaryDirectory() + "earshot-privacy-" + UUID().uuidString.prefix(8)
        root = scratch + "/root"
        home = root + "/home"
        runtime = root + "/run"
        logs = scratch + "/logs"
        for directory in [home, runtime, logs] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent)
    }

    /// Where the daemon puts its socket by default.
    var socketPath: String { runtime + "/earshot/earshot.sock" }
    /// Where the daemon keeps recordings by default (`XDG_STATE_HOME` unset).
    var recordings: String { home + "/.local/state/earshot/recordings" }

    /// `sound`'s environment, with every place a program writes to by default in this home.
    func environment(_ sound: any TestSoundServer) -> [String: String] {
        var environment = sound.environment
        for key in ["XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "TMPDIR"] {
            environment[key] = nil
        }
        environment["HOME"] = home
        environment["XDG_RUNTIME_DIR"] = runtime
        // libpulse creates its client cookie (~/.config/pulse/cookie) when there is none: the
        // sound server's file, not Earshot's, so it lives with the test server.
        environment["PULSE_COOKIE"] = sound.directory + "/cookie"
        return environment
    }

    /// Every file and socket under `root` (directories left out), relative to it, sorted.
    func files() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            found.append(path)
        }
        return found.sorted()
    }

    /// Starts `earshotd` with `arguments` in this home, on its default socket path, and waits
    /// until it accepts connections.
    /// `launcher`: a command that runs the daemon (its path and arguments follow it), such as
    /// `unshare` to give it a file system of its own.
    func startDaemon(
        _ sound: any TestSoundServer, _ arguments: [String], log name: String = "earshotd", launcher: [String] = []
    ) throws -> ChildProcess {
        guard let binary = DaemonProcess.binary else { throw DaemonProcess.NotBuilt() }
        let logPath = logs + "/\(name).log"
        let command = launcher + [binary.path] + arguments + ["--verbose"]
        let daemon = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment(sound), outputPath: logPath)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if DaemonProcess.accepts(socketPath) { return daemon }
            if !daemon.isRunning { break }
            usleep(20_000)
        }
        _ = daemon.terminate()
        throw DaemonProcess.DidNotStart(log: fileText(logPath))
    }

    func log(_ name: String = "earshotd") -> String {
        fileText(logs + "/\(name).log")
    }

    /// Runs the built `earshot` with `arguments` in this home, stdin not a terminal.
    func earshot(_ sound: any TestSoundServer, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary = BuiltProduct.url("earshot") else { throw LineSocket.Failure(description: "earshot is not built next to the tests") }
        let name = UUID().uuidString.prefix(8)
        let out = logs + "/earshot-\(name).out", err = logs + "/earshot-\(name).err"
        let status = try ChildProcess(binary.path, arguments, environment: environment(sound), outputPath: out, errorPath: err).wait()
        return (status, fileText(out), fileText(err))
    }
}
