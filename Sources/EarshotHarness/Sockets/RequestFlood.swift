import EarshotBase
import EarshotProtocol
import Foundation

/// One client sending `RequestMutator` lines to the daemon as fast as it takes them, on a thread
/// of its own, while the calling thread reads the answers: every line must get exactly one
/// response, and every response must be a well-formed `{"id":…,"ok":…}` line.
public enum RequestFlood {
    public struct Outcome: Sendable {
        public var requests: Int
        public var responses = 0
        /// Events the client received: a mutation may subscribe it.
        public var events = 0
        /// Answers with `"ok":true`.
        public var succeeded = 0
        /// Error codes of the failed ones, and how often each came.
        public var errorCodes: [String: Int] = [:]
        /// Lines that were neither an event nor a response object.
        public var malformed: [String] = []
        public var bytesSent = 0
        public var seconds = 0.0
        /// Why the flood stopped short, if it did.
        public var failure: String?

        public var requestsPerSecond: Double { Double(responses) / max(seconds, 1e-9) }
    }

    /// Sends `requests` lines drawn from `seed` and reads until each is answered, or nothing has
    /// come for `patience` seconds.
    public static func run(socketPath: String, requests: Int, seed: UInt64, patience: Double = 30) throws -> Outcome {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LineSocket.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let address = try UnixSocketAddress(path: socketPath)
        guard address.connect(fd) == 0 else {
            throw LineSocket.Failure(description: "connect \(socketPath): \(String(cString: strerror(errno)))")
        }
        let sent = Locked((bytes: 0, failure: String?.none))
        let writing = DispatchSemaphore(value: 0)
        let start = Date()
        Thread {
            sent.withLock { $0 = send(requests: requests, seed: seed, to: fd) }
            writing.signal()
        }.start()
        var outcome = Outcome(requests: requests)
        read(from: fd, into: &outcome, patience: patience)
        outcome.seconds = Date().timeIntervalSince(start)
        // The writer ends once the daemon took every line; if it stopped reading, end it.
        if outcome.responses < requests { shutdown(fd, Int32(SHUT_RDWR)) }
        writing.wait()
        let (bytes, failure) = sent.withLock { $0 }
        outcome.bytesSent = bytes
        if outcome.failure == nil { outcome.failure = failure }
        return outcome
    }

    private static func send(requests: Int, seed: UInt64, to fd: Int32) -> (bytes: Int, failure: String?) {
        var mutator = RequestMutator(seed: seed)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(300_000)
        var total = 0
        func flush() -> String? {
            var offset = 0
            while offset < buffer.count {
                let written = buffer[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return "sending stopped: \(String(cString: strerror(errno)))" }
                offset += written
            }
            total += buffer.count
            buffer.removeAll(keepingCapacity: true)
            return nil
        }
        for _ in 0..<requests {
            buffer += mutator.next()
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 200_000, let failure = flush() { return (total, failure) }
        }
        return (total, flush())
    }

    private static func read(from fd: Int32, into outcome: inout Outcome, patience: Double) {
        var chunk = [UInt8](repeating: 0, count: 262_144)
        var pending: [UInt8] = []
        while outcome.responses < outcome.requests {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(patience * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                outcome.failure = "no answer for \(patience) s after \(outcome.responses) of \(outcome.requests)"
                return
            }
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else {
                outcome.failure = "the daemon closed the connection after \(outcome.responses) of \(outcome.requests) answers"
                return
            }
            pending += chunk[..<count]
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                classify(pending[lineStart..<newline], into: &outcome)
                lineStart = newline + 1
            }
            pending.removeFirst(lineStart)
        }
    }

    private static let eventPrefix = Array(#"{"event":""#.utf8)
    private static let responsePrefix = Array(#"{"id":"#.utf8)
    private static let okTrue = Array(#","ok":true"#.utf8)
    private static let okFalse = Array(#","ok":false,"error":{"code":""#.utf8)

    private static func classify(_ line: ArraySlice<UInt8>, into outcome: inout Outcome) {
        if line.starts(with: eventPrefix) {
            outcome.events += 1
            return
        }
        guard line.starts(with: responsePrefix), line.last == UInt8(ascii: "}") else {
            if outcome.malformed.count < 10 { outcome.malformed.append(String(decoding: line.prefix(300), as: UTF8.self)) }
            return
        }
        outcome.responses += 1
        if let range = line.firstRange(of: okFalse) {
            let code = line[range.upperBound...].prefix { $0 != UInt8(ascii: "\"") }
            outcome.errorCodes[String(decoding: code, as: UTF8.self), default: 0] += 1
        } else if line.firstRange(of: okTrue) != nil {
            outcome.succeeded += 1
        } else if outcome.malformed.count < 10 {
            outcome.malformed.append(String(decoding: line.prefix(300), as: UTF8.self))
        }
    }
}
