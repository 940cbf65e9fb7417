import Foundation

/// Why talking to the daemon failed, in words a person can act on (`description`).
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing listens on the socket: no socket file (`staleSocketFile` false), or one left behind
    /// by a daemon that stopped.
    case daemonNotRunning(path: String, staleSocketFile: Bool)
    /// Something other than a socket is at the path (a directory, a regular file).
    case notASocket(path: String)
    /// The socket is another user's: the file refused us, or the daemon did (`permission_denied`).
    case socketOwnedByAnotherUser(path: String)
    /// A Unix socket path must fit its address (`UnixSocketAddress.maximumPathLength`, 107 bytes).
    case socketPathTooLong(path: String, limit: Int)
    /// A system call failed for a reason this client has no better words for.
    case systemCallFailed(action: String, errno: Int32)
    /// The daemon did not answer within the time allowed.
    case timedOut(waitingFor: String, after: Duration)
    /// The daemon closed the connection: it stopped, restarted, or dropped this client.
    case connectionClosed(path: String)
    /// The daemon sent something the protocol does not allow.
    case protocolViolation(String)
    /// The daemon answered a request with `"ok":false`.
    case commandFailed(command: String, code: String, message: String)

    public var description: String {
        switch self {
        case .daemonNotRunning(let path, let stale):
            let what = stale
                ? "nothing is listening on \(path) (a socket file left behind by a daemon that stopped)"
                : "there is no socket at \(path)"
            return "The Earshot daemon is not running: \(what).\n"
                + "Start it with `earshotd`, or `systemctl --user start earshotd.socket` once it is installed."
        case .notASocket(let path):
            return "The Earshot daemon is not listening on \(path): that is not a socket.\n"
                + "Start the daemon with `earshotd`, or point --socket at its socket."
        case .socketOwnedByAnotherUser(let path):
            return "The socket \(path) belongs to another user: only they may talk to that daemon.\n"
                + "Start your own daemon with `earshotd`, or point --socket at your own daemon's socket."
        case .socketPathTooLong(let path, let limit):
            return "The socket path is too long for a Unix socket (\(path.utf8.count) bytes, at most \(limit)): \(path)"
        case .systemCallFailed(let action, let code):
            return "Could not \(action): \(Self.words(forErrno: code))."
        case .timedOut(let request, let duration):
            return "The Earshot daemon did not answer \(request) within \(Self.secondsText(duration))."
        case .connectionClosed(let path):
            return "The Earshot daemon closed the connection on \(path) (it stopped or restarted)."
        case .protocolViolation(let what):
            return "The Earshot daemon sent something this client does not understand: \(what)"
        case .commandFailed(_, _, let message):
            return message
        }
    }

    /// The error a failed `connect(2)` means, by its errno.
    /// `fileType` is the `S_IFMT` bits of what is at `path`, `nil` when nothing is.
    static func connectFailure(errno code: Int32, path: String, fileType: mode_t?) -> ClientError {
        switch code {
        case ENOENT, ENOTDIR: .daemonNotRunning(path: path, staleSocketFile: false)
        case ECONNREFUSED:
            switch fileType {
            case nil: .daemonNotRunning(path: path, staleSocketFile: false)
            case S_IFSOCK?: .daemonNotRunning(path: path, staleSocketFile: true)
            default: .notASocket(path: path)
            }
        case EACCES, EPERM: .socketOwnedByAnotherUser(path: path)
        default: .systemCallFailed(action: "connect to \(path)", errno: code)
        }
    }

    static func words(forErrno code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func secondsText(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%g s", seconds)
    }
}
