import EarshotProtocol
import Foundation
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// Loopback ports and sockets as tests need them: a free port to listen on, and whether
/// something accepts connections yet.
public enum SocketProbe {
    public enum Address: Sendable {
        case tcp(port: Int)
        case unix(path: String)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A TCP port on 127.0.0.1 that nothing is bound to, for a server a test starts. It is drawn
    /// at random below the kernel's ephemeral range: a port the kernel picked would be free when
    /// returned, but every client socket (the tests' own probes among them) takes its local port
    /// from that range, and one could hold it by the time the server binds it ("Address already
    /// in use"). Falls back to the kernel's pick where that range leaves no room below it.
    public static func freeLoopbackPort() throws -> Int {
        let ephemeralLow = ephemeralRange()?.lowerBound ?? 32768
        if ephemeralLow > 11_000 {
            for _ in 0..<100 {
                if let port = try bound(port: Int.random(in: 10_000..<ephemeralLow)) { return port }
            }
        }
        guard let port = try bound(port: 0) else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        return port
    }

    /// `net.ipv4.ip_local_port_range`: the ports the kernel gives client sockets.
    static func ephemeralRange() -> ClosedRange<Int>? {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8) else { return nil }
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] > 0, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }

    /// Binds a TCP socket to `port` on 127.0.0.1 (0: the kernel picks) and closes it; the port it
    /// was bound to, or nil when the bind failed (errno says why).
    private static func bound(port: Int) throws -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a connection to `address` is accepted now (it is closed at once).
    public static func accepts(_ address: Address) -> Bool {
        switch address {
        case .tcp(let port):
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var target = loopback(port: port)
            return withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        case .unix(let path):
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            guard let target = try? UnixSocketAddress(path: path) else { return false }
            return target.connect(fd) == 0
        }
    }

    /// 127.0.0.1:`port`.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
