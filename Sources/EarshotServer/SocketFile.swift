import EarshotProtocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket file at a path, claimed for this server: its directory exists (created 0700 when
/// missing), no live daemon answers there, and a lock file next to it is held so that two
/// daemons starting at once cannot both remove the other's socket.
struct SocketFile {
    let path: String
    private let lockDescriptor: Int32

    private init(path: String, lockDescriptor: Int32) {
        self.path = path
        self.lockDescriptor = lockDescriptor
    }

    static func claim(path: String) throws(SocketServerError) -> SocketFile {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw .systemCallFailed(call: "bind", path: path, errno: ENAMETOOLONG)
        }
        try createDirectories(for: path)
        let lockPath = path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .systemCallFailed(call: "open", path: lockPath, errno: errno) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(lock)
            if error == EWOULDBLOCK { throw .alreadyRunning(path: path) }
            throw .systemCallFailed(call: "lock", path: lockPath, errno: error)
        }
        do {
            try removeStaleSocket(at: address)
        } catch {
            close(lock)
            throw error
        }
        return SocketFile(path: path, lockDescriptor: lock)
    }

    /// Makes the bound socket readable and writable by its owner only.
    func restrictMode() throws(SocketServerError) {
        guard chmod(path, 0o600) == 0 else { throw .systemCallFailed(call: "chmod", path: path, errno: errno) }
    }

    /// Removes the socket and lets go of the lock. The lock file stays: removing it could let
    /// a starting daemon lock a file that is no longer the one others will open.
    func release() {
        unlink(path)
        close(lockDescriptor)
    }

    /// Creates each missing directory above `path` with mode 0700. Existing directories keep
    /// their mode: `--socket /tmp/x.sock` must not change `/tmp`.
    private static func createDirectories(for path: String) throws(SocketServerError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                // The umask may have taken bits away; 0700 is what the protocol promises.
                chmod(prefix, 0o700)
                continue
            }
            let error = errno
            var info = stat()
            guard error == EEXIST, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw .systemCallFailed(call: "mkdir", path: prefix, errno: error == EEXIST ? ENOTDIR : error)
            }
        }
    }

    /// Removes a socket file no one listens on; refuses if someone does, or if it is no socket.
    private static func removeStaleSocket(at address: UnixSocketAddress) throws(SocketServerError) {
        let path = address.path
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .systemCallFailed(call: "stat", path: path, errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        if try isAnswering(address) { throw .alreadyRunning(path: path) }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .systemCallFailed(call: "remove the stale socket", path: path, errno: errno)
        }
    }

    /// Whether a process accepts connections on the socket at `address`.
    private static func isAnswering(_ address: UnixSocketAddress) throws(SocketServerError) -> Bool {
        let path = address.path
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { throw .systemCallFailed(call: "socket for", path: path, errno: errno) }
        defer { close(probe) }
        let result = address.connect(probe)
        if result == 0 { return true }
        switch errno {
        // A full backlog (EAGAIN) still means someone listens.
        case EAGAIN, EINPROGRESS: return true
        case ECONNREFUSED, ENOENT: return false
        case let error: throw .systemCallFailed(call: "connect to", path: path, errno: error)
        }
    }
}
