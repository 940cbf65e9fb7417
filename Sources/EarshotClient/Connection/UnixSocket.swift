import EarshotProtocol
import Glibc

/// A connected Unix stream socket: thin wrappers over the system calls the client makes, each
/// failure turned into a `ClientError` that says what failed.
struct UnixSocket {
    let descriptor: Int32

    /// What one `poll(2)` reported.
    enum Readiness {
        case readable
        case timedOut
    }

    static func connect(to path: String) throws(ClientError) -> UnixSocket {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw .socketPathTooLong(path: path, limit: error.limit)
        }
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .systemCallFailed(action: "create a Unix socket", errno: errno) }
        guard address.connect(descriptor) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw ClientError.connectFailure(errno: code, path: path, fileType: fileType(path))
        }
        return UnixSocket(descriptor: descriptor)
    }

    /// The `S_IFMT` bits of what is at `path`; `nil` when nothing is.
    static func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// Waits until there is something to read (data or end of stream), or `milliseconds` pass
    /// (-1: forever).
    func waitUntilReadable(milliseconds: Int32) throws(ClientError) -> Readiness {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let result = poll(&request, 1, milliseconds)
        if result < 0 {
            // A signal (Ctrl-C, a resize) interrupts the wait; the caller's loop decides what next.
            if errno == EINTR { return .timedOut }
            throw .systemCallFailed(action: "wait for the daemon's socket", errno: errno)
        }
        return result == 0 ? .timedOut : .readable
    }

    /// Reads what is available into `buffer`, returning the byte count; 0 means the daemon closed
    /// the connection.
    func read(into buffer: inout [UInt8]) throws(ClientError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case ECONNRESET: return 0
            case let code: throw .systemCallFailed(action: "read from the daemon's socket", errno: code)
            }
        }
    }

    /// Writes all of `bytes`; `false` if the daemon has closed its end.
    func writeAll(_ bytes: [UInt8]) throws(ClientError) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that went away must give EPIPE, not kill the client with SIGPIPE.
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EPIPE, ECONNRESET: return false
            case let code: throw .systemCallFailed(action: "send to the daemon's socket", errno: code)
            }
        }
        return true
    }

    func close() {
        Glibc.close(descriptor)
    }
}
