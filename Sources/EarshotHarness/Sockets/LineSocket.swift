import EarshotBase
import EarshotProtocol
public import Foundation

/// A blocking Unix-socket client speaking JSON lines, for talking to the real daemon in tests
/// and benchmarks.
public final class LineSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    private let fd: Int32
    private var lines = LineSplitter(maximumLength: .max)
    /// Whether the daemon closed the connection (a read found its end).
    public private(set) var isClosed = false

    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            close(fd)
            throw Failure(description: error.description)
        }
        guard address.connect(fd) == 0 else {
            close(fd)
            throw Failure(description: "connect \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    public func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that closed the connection (restarting, dying) gives EPIPE,
            // not a SIGPIPE, which would end a program that does not ignore it (a bench).
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next line, or nil when `timeout` passes first or the daemon closed the connection.
    public func readLine(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if case .line(let line)? = lines.next() { return String(decoding: line, as: UTF8.self) }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else {
                if count == 0 { isClosed = true }
                return nil
            }
            lines.append(chunk[..<count])
        }
    }

    /// Reads (and discards) whatever the daemon sent; true once the connection's end comes
    /// within `timeout`, false when it is still open then.
    public func readUntilClosed(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !isClosed {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            let count = read(fd, &chunk, chunk.count)
            if count == 0 || (count < 0 && errno == ECONNRESET) { isClosed = true }
            guard count >= 0 || errno == EINTR || errno == EAGAIN || errno == ECONNRESET else { return false }
        }
        return true
    }

    /// Sends a request and returns its response, collecting the events that arrive meanwhile.
    public func request(_ line: String, events: inout [[String: Any]], timeout: TimeInterval = 5) throws -> [String: Any] {
        try send(line)
        let deadline = Date().addingTimeInterval(timeout)
        while let text = readLine(timeout: deadline.timeIntervalSinceNow) {
            guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
            if object["ok"] != nil { return object }
            events.append(object)
        }
        throw Failure(description: "no response to \(line)")
    }

    /// Reads events until `stop` says so or `timeout` passes; returns all read.
    public func events(timeout: TimeInterval, until stop: ([String: Any]) -> Bool = { _ in false }) -> [[String: Any]] {
        var collected: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let text = readLine(timeout: deadline.timeIntervalSinceNow) {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { continue }
            collected.append(object)
            if stop(object) { break }
        }
        return collected
    }
}
