import EarshotProtocol
import EarshotTestSupport
import Foundation

/// The real `earshotd` started as systemd starts a socket-activated Type=notify service: the
/// test binds the listening socket and passes it as descriptor 3 (`LISTEN_FDS`, `LISTEN_PID`),
/// listens on `NOTIFY_SOCKET`, and sets `WATCHDOG_USEC`.
final class ActivatedDaemon {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: String
    let socketPath: String
    let logPath: String
    let notifications: NotifyListener
    let process: ChildProcess
    private let listeners: [Int32]

    /// - Parameter sockets: how many listening sockets to pass (systemd passes one per
    ///   `ListenStream=`); the first is `socketPath`.
    init(sound: any TestSoundServer, arguments: [String], watchdog: Duration?, sockets: Int = 1) throws {
        guard let binary = DaemonProcess.binary else { throw DaemonProcess.NotBuilt() }
        let directory = NSTemporaryDirectory() + "earshotd-activated-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        socketPath = directory + "/earshot.sock"
        logPath = directory + "/earshotd.log"
        notifications = try NotifyListener(path: directory + "/notify.sock")
        listeners = try (0..<sockets).map { index in
            try Self.listeningSocket(at: index == 0 ? directory + "/earshot.sock" : directory + "/extra-\(index).sock")
        }
        var environment = sound.environment
        environment["LISTEN_FDS"] = "\(sockets)"
        environment["NOTIFY_SOCKET"] = notifications.path
        if let watchdog {
            environment["WATCHDOG_USEC"] = "\(watchdog.components.seconds * 1_000_000 + watchdog.components.attoseconds / 1_000_000_000_000)"
        }
        // LISTEN_PID must be the daemon's own pid: the shell's, which exec keeps.
        process = try ChildProcess(
            "/bin/sh", ["-c", #"LISTEN_PID=$$ exec "$0" "$@""#, binary.path, "--socket", socketPath, "--verbose"] + arguments,
            environment: environment, outputPath: logPath, passing: listeners
        )
    }

    deinit {
        process.terminate(with: SIGKILL)
        for listener in listeners { close(listener) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    var log: String { fileText(logPath) }

    /// A Unix stream socket listening at `path`, as a descriptor above the ones it will become.
    private static func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard try UnixSocketAddress(path: path).bind(descriptor) == 0, listen(descriptor, 16) == 0 else {
            throw Failure(description: "bind/listen \(path): \(String(cString: strerror(errno)))")
        }
        let high = fcntl(descriptor, F_DUPFD_CLOEXEC, 20)
        guard high >= 0 else { throw Failure(description: "dup: \(String(cString: strerror(errno)))") }
        return high
    }
}
