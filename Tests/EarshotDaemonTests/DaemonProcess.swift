import EarshotProtocol
import EarshotTestSupport
import Foundation

/// The real `earshotd` binary, started for a test against a private sound server.
final class DaemonProcess: @unchecked Sendable {
    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "earshotd is not built next to the test bundle: run `swift build` first" }
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "earshotd did not start listening on its socket; its log:\n\(log)" }
    }

    static let binary = BuiltProduct.url("earshotd")

    let process = Process()
    let socketPath: String
    let logPath: String

    /// Starts `earshotd --socket <dir>/earshot.sock` with `arguments`, in `environment` (which
    /// should name the sound server), and waits until its socket accepts connections.
    /// Transcription is off unless `arguments` names a backend (`--stt`), as in plain replay.
    init(directory: String, environment: [String: String], arguments: [String] = []) throws {
        guard let binary = Self.binary else { throw NotBuilt() }
        socketPath = directory + "/earshot.sock"
        logPath = directory + "/earshotd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = binary
        let transcription = arguments.contains("--stt") ? [] : ["--stt", "none"]
        process.arguments = ["--socket", socketPath, "--verbose"] + transcription + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if Self.accepts(socketPath) { return }
            if !process.isRunning { break }
            usleep(20_000)
        }
        process.terminate()
        throw DidNotStart(log: self.log)
    }

    var pid: Int32 { process.processIdentifier }
    var log: String { fileText(logPath) }

    /// Sends SIGTERM and waits for the process to end; returns its exit status. A daemon still
    /// running after `patience` (systemd's TimeoutStopSec= is 10 s) is stuck: it is killed, and
    /// the status says SIGKILL, so a test fails instead of waiting for ever.
    @discardableResult
    func terminate(patience: TimeInterval = 15) -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(patience)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = try? UnixSocketAddress(path: path) else { return false }
        return address.connect(fd) == 0
    }
}
