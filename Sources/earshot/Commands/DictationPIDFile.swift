import ArgumentParser
import EarshotProtocol
import Foundation
import Glibc

/// `dictate.pid` beside the daemon's socket: which process dictates for that daemon, so that
/// `earshot dictate --stop` can end it and a second dictation is refused.
struct DictationPIDFile {
    let path: String

    init(socket: String) {
        path = SocketLocation.directory(ofSocket: socket) + "/dictate.pid"
    }

    /// The dictating process, if one is running (a file left by a process that died names none).
    var runningProcess: pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
            let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8), command.contains("earshot")
        else { return nil }
        return Self.isAlive(pid) ? pid : nil
    }

    func claim() throws {
        if let running = runningProcess, running != getpid() {
            ConsoleOutput.error("Dictation is already running (process \(running)); `earshot dictate --stop` stops it.")
            throw ExitCode(2)
        }
        do {
            try "\(getpid())\n".write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            ConsoleOutput.error("Cannot write \(path) (\(error.localizedDescription)): is the daemon's directory yours?")
            throw ExitCode(1)
        }
    }

    /// Removes the file if it still names this process.
    func release() {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) == getpid()
        else { return }
        unlink(path)
    }

    /// `--stop`: asks the dictating process to stop (SIGTERM) and waits until it has.
    func stopRunning() throws {
        guard let pid = runningProcess else {
            ConsoleOutput.error("No dictation is running (nothing in \(path)).")
            throw ExitCode(1)
        }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.isAlive(pid), ContinuousClock.now < deadline { usleep(10_000) }
        guard !Self.isAlive(pid) else {
            ConsoleOutput.error("Dictation (process \(pid)) did not stop within 5 s.")
            throw ExitCode(1)
        }
        ConsoleOutput.line("Dictation stopped.")
    }

    /// Running, and not a zombie waiting to be reaped.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first != "Z"
    }
}
