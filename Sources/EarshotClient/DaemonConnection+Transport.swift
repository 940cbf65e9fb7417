import EarshotProtocol

extension DaemonConnection {
    /// Writes one whole line (`\n` included).
    func send(_ line: [UInt8]) throws(ClientError) {
        guard !isClosed else { throw .connectionClosed(path: path) }
        guard try socket.writeAll(line) else { throw closedConnectionError() }
    }

    /// Why the daemon hung up: a refusal it sent first and is still unread (a daemon refusing
    /// another user says so and disconnects at once, often before the request is written), or
    /// plainly `connectionClosed`.
    func closedConnectionError() -> ClientError {
        while let line = try? readLine(until: .now) {
            if case .response(let response)? = try? DaemonMessage(line: line),
                response.error?.code == ProtocolError.Code.permissionDenied
            {
                return .socketOwnedByAnotherUser(path: path)
            }
        }
        return .connectionClosed(path: path)
    }

    /// The next complete line, reading from the socket as needed; `nil` once `deadline` passes
    /// (`nil`: no deadline).
    func readLine(until deadline: ContinuousClock.Instant?) throws(ClientError) -> String? {
        guard !isClosed else { throw .connectionClosed(path: path) }
        while true {
            if let line = try lines.nextLine() { return line }
            guard try socket.waitUntilReadable(milliseconds: Self.pollMilliseconds(until: deadline)) == .readable else {
                if let deadline, ContinuousClock.now >= deadline { return nil }
                continue
            }
            let count = try socket.read(into: &readBuffer)
            guard count > 0 else { throw .connectionClosed(path: path) }
            lines.append(readBuffer[0..<count])
        }
    }

    /// `poll`'s timeout for a deadline: whole milliseconds rounded up, so a wait never ends early.
    static func pollMilliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
