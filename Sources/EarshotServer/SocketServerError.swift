#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the server could not start.
public enum SocketServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another daemon answers on the socket path (or holds its lock).
    case alreadyRunning(path: String)
    /// Something other than a socket sits at the socket path; it is left alone.
    case notASocket(path: String)
    /// A system call on `path` failed with `errno`.
    case systemCallFailed(call: String, path: String, errno: Int32)
    /// `run()` was called a second time.
    case alreadyStarted

    public var description: String {
        switch self {
        case .alreadyRunning(let path):
            "earshotd is already running on \(path); stop it first, or pass --socket to use another path"
        case .notASocket(let path):
            "\(path) exists and is not a socket; remove it or pass --socket to use another path"
        case .systemCallFailed(let call, let path, let errno):
            "\(call) \(path) failed: \(String(cString: strerror(errno)))"
        case .alreadyStarted:
            "the socket server was already started"
        }
    }
}
