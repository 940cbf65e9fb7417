#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// The address of a Unix-domain socket bound to a path (`sockaddr_un`): built once here for every
/// `connect(2)` and `bind(2)` on such a socket, and read back from a bound socket. Abstract names
/// are not built, since no one uses them; reading one back gives no address.
public struct UnixSocketAddress: Hashable, Sendable {
    /// A path longer than `sun_path` holds with its terminating NUL.
    public struct PathTooLong: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var limit: Int { UnixSocketAddress.maximumPathLength }

        public var description: String {
            "the socket path is \(path.utf8.count) bytes, more than the \(limit) a Unix socket allows: \(path)"
        }
    }

    /// The longest path in bytes (`sun_path` less its terminating NUL: 107 on Linux).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public let path: String

    public init(path: String) throws(PathTooLong) {
        guard path.utf8.count <= Self.maximumPathLength else { throw PathTooLong(path: path) }
        self.path = path
    }

    /// The address of the socket `descriptor` is bound to (`getsockname(2)`); nil when it is not
    /// a Unix socket or has no path (unbound, or an abstract name).
    public init?(boundTo descriptor: Int32) {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let pathLength = Int(length) - MemoryLayout.offset(of: \sockaddr_un.sun_path)!
        guard pathLength > 0 else { return nil }
        let path: String? = withUnsafeBytes(of: address.sun_path) { bytes in
            let name = bytes.prefix(min(pathLength, bytes.count))
            // An abstract socket's name starts with a NUL byte: it has no path.
            guard let first = name.first, first != 0 else { return nil }
            return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let path else { return nil }
        self.path = path
    }

    /// Calls `body` with the address as the system calls take it; the pointer is valid only
    /// inside `body`.
    public func withUnsafeSockaddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { field in
            field.copyBytes(from: path.utf8)
            field[path.utf8.count] = 0
        }
        return try withUnsafePointer(to: &address) { pointer throws(Failure) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Failure) in
                try body(address, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// `connect(2)`s `descriptor` to this address: 0, or -1 with `errno` set.
    public func connect(_ descriptor: Int32) -> Int32 {
        withUnsafeSockaddr { address, length in
            #if canImport(Glibc)
            Glibc.connect(descriptor, address, length)
            #else
            Darwin.connect(descriptor, address, length)
            #endif
        }
    }

    /// `bind(2)`s `descriptor` to this address: 0, or -1 with `errno` set.
    public func bind(_ descriptor: Int32) -> Int32 {
        withUnsafeSockaddr { address, length in
            #if canImport(Glibc)
            Glibc.bind(descriptor, address, length)
            #else
            Darwin.bind(descriptor, address, length)
            #endif
        }
    }
}
