import EarshotProtocol
import Glibc

/// Raw sockets the tests set up around the server: a stale socket file, a foreign listener,
/// a descriptor handed over as systemd would.
enum ServerUnixSocket {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var error: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(error)))" }
    }

    /// A socket bound to `path`, listening when `listen` says so; the caller closes it.
    static func bind(_ path: String, listen shouldListen: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", error: errno) }
        guard try UnixSocketAddress(path: path).bind(descriptor) == 0 else { throw Failure(call: "bind", error: errno) }
        if shouldListen, listen(descriptor, 16) != 0 { throw Failure(call: "listen", error: errno) }
        return descriptor
    }

    /// A socket file with no one listening: what a crashed daemon leaves behind.
    static func makeStale(_ path: String) throws {
        close(try bind(path, listen: false))
    }

    /// The permission bits and file type of `path`, or `nil` if it does not exist.
    static func mode(of path: String) -> (permissions: mode_t, isSocket: Bool, isDirectory: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & 0o7777, info.st_mode & S_IFMT == S_IFSOCK, info.st_mode & S_IFMT == S_IFDIR)
    }
}
