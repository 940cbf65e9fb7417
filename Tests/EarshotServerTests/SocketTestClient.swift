import EarshotBase
import EarshotProtocol
import Glibc

/// A plain client on a non-blocking Unix socket, written against the kernel rather than NIO so
/// the tests exercise the server through nothing but the socket. Reads poll and sleep instead
/// of blocking, so many clients can wait at once without holding the test's threads.
final class SocketTestClient {
    enum Failure: Error, CustomStringConvertible {
        case system(String, Int32)
        case timedOut(waitingFor: String)
        case closedByServer

        var description: String {
            switch self {
            case .system(let call, let error): "\(call) failed: \(String(cString: strerror(error)))"
            case .timedOut(let what): "timed out waiting for \(what)"
            case .closedByServer: "the server closed the connection"
            }
        }
    }

    let descriptor: Int32
    private var received = LineSplitter(maximumLength: .max)
    private(set) var isClosedByServer = false

    /// Connects to `path`; `receiveBufferSize` shrinks `SO_RCVBUF` before connecting.
    init(path: String, receiveBufferSize: Int? = nil) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.system("socket", errno) }
        if var size = receiveBufferSize.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        guard try UnixSocketAddress(path: path).connect(descriptor) == 0 else {
            let error = errno
            close(descriptor)
            throw Failure.system("connect", error)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) async throws {
        try await send(bytes: Array(text.utf8))
    }

    /// Writes all of `bytes`, waiting while the socket is full.
    func send(bytes: [UInt8]) async throws {
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN {
                guard ContinuousClock.now < deadline else { throw Failure.timedOut(waitingFor: "room to write") }
                try await Task.sleep(for: .milliseconds(1))
            } else {
                throw Failure.system("write", errno)
            }
        }
    }

    /// Whether the server sent bytes that have not been read yet (looked at, not read).
    var hasBytesWaiting: Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// Tells the server nothing more will be sent, as `socat` does when its input ends.
    func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The next line, without its newline.
    func readLine(timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while true {
            if case .line(let line)? = received.next() { return Array(line) }
            if isClosedByServer { throw Failure.closedByServer }
            if try !fill() {
                guard ContinuousClock.now < deadline else { throw Failure.timedOut(waitingFor: "a line") }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    func readJSON(timeout: Duration = .seconds(5)) async throws -> JSONValue {
        try JSONParser.parse(try await readLine(timeout: timeout))
    }

    /// Sends `line` and returns the next response, setting aside events that arrive first.
    func request(_ line: String, events: inout [JSONValue]) async throws -> JSONValue {
        try await send(line + "\n")
        while true {
            let message = try await readJSON()
            if message["event"] != nil { events.append(message) } else { return message }
        }
    }

    /// Sends `line` and returns the next line, which must be its response.
    func request(_ line: String) async throws -> JSONValue {
        var events: [JSONValue] = []
        return try await request(line, events: &events)
    }

    /// Waits until the server closes the connection, discarding what it sent; `false` on timeout.
    func waitUntilClosedByServer(timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isClosedByServer {
            _ = received.finish()
            if try !fill() {
                guard ContinuousClock.now < deadline else { return false }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return true
    }

    /// Reads what is available; `false` when nothing was.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            received.append(chunk[..<count])
            return true
        }
        if count == 0 {
            isClosedByServer = true
            return true
        }
        if errno == EAGAIN { return false }
        if errno == ECONNRESET {
            isClosedByServer = true
            return true
        }
        throw Failure.system("read", errno)
    }
}
