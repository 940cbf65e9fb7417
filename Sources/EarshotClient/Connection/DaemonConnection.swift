import EarshotBase
public import EarshotProtocol

/// A blocking JSON-lines connection to `earshotd`'s Unix socket (PROTOCOL.md, "The daemon's
/// socket"). Requests wait for their response; events that arrive meanwhile are kept for
/// `nextEvent`. Not thread-safe: one thread talks through one connection.
public final class DaemonConnection {
    /// The socket path this connection was made to.
    public let path: String
    /// How long `request` waits for an answer unless told otherwise.
    public var responseTimeout: Duration

    let socket: UnixSocket
    var lines = LineBuffer()
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Events read while waiting for a response, oldest first.
    var heldEvents: [DaemonEvent] = []
    var nextRequestID = 1
    var isClosed = false

    init(path: String, socket: UnixSocket, responseTimeout: Duration) {
        self.path = path
        self.socket = socket
        self.responseTimeout = responseTimeout
    }

    deinit {
        if !isClosed { socket.close() }
    }

    /// Connects to the daemon listening on `path`.
    ///
    /// When nothing listens there, the error says the daemon is not running and how to start it.
    public static func connect(
        path: String = SocketLocation.defaultPath(),
        responseTimeout: Duration = .seconds(5)
    ) throws(ClientError) -> DaemonConnection {
        DaemonConnection(path: path, socket: try UnixSocket.connect(to: path), responseTimeout: responseTimeout)
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        socket.close()
    }

    /// Sends the request `{"id":…,"cmd":…,…arguments}` for `command` and returns the daemon's
    /// response to it.
    ///
    /// Events that arrive first are held for `nextEvent`; a response that fails (`"ok":false`)
    /// throws `commandFailed` with the daemon's code and message.
    @discardableResult
    public func request(_ command: Command, timeout: Duration? = nil) throws(ClientError) -> DaemonResponse {
        let id = nextRequestID
        nextRequestID += 1
        try send(Request(id: .integer(id), command: command).jsonLine())
        let deadline = ContinuousClock.now.advanced(by: timeout ?? responseTimeout)
        while true {
            guard let line = try readLine(until: deadline) else {
                throw .timedOut(waitingFor: "`\(command.name)`", after: timeout ?? responseTimeout)
            }
            switch try DaemonMessage(line: line) {
            case .event(let event):
                heldEvents.append(event)
            case .response(let response):
                if response.error?.knownCode == .permissionDenied { throw .socketOwnedByAnotherUser(path: path) }
                // A null id on a failure means the daemon could not read the request at all.
                guard response.id.integerValue == id || (response.id == .null && !response.ok) else {
                    continue  // The answer to an earlier request that timed out.
                }
                if let error = response.error {
                    throw .commandFailed(command: command.name, code: error.code, message: error.message)
                }
                return response
            }
        }
    }

    /// Asks the daemon to push events of `topics` (all of them by default), levels at `levelHz`
    /// readings a second (the daemon's default when `nil`).
    @discardableResult
    public func subscribe(to topics: [EventTopic] = EventTopic.allCases, levelHz: Int? = nil) throws(ClientError) -> DaemonResponse {
        try request(.subscribe(topics: Set(topics), levelHz: levelHz ?? Command.defaultLevelHz))
    }

    /// The next line from the daemon, as sent (held events first), or `nil` if none arrives
    /// within `timeout` (`nil`: wait as long as it takes). Throws `connectionClosed` when the
    /// daemon goes away.
    public func nextLine(timeout: Duration?) throws(ClientError) -> String? {
        if !heldEvents.isEmpty { return heldEvents.removeFirst().line }
        return try readLine(until: timeout.map { ContinuousClock.now.advanced(by: $0) })
    }

    /// The next event, skipping responses to earlier requests, or `nil` if none arrives within
    /// `timeout` (`nil`: wait as long as it takes). Throws `connectionClosed` when the daemon
    /// goes away.
    public func nextEvent(timeout: Duration?) throws(ClientError) -> DaemonEvent? {
        if !heldEvents.isEmpty { return heldEvents.removeFirst() }
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        while let line = try readLine(until: deadline) {
            switch try DaemonMessage(line: line) {
            case .event(let event):
                return event
            case .response(let response):
                if response.error?.knownCode == .permissionDenied { throw .socketOwnedByAnotherUser(path: path) }
            }
        }
        return nil
    }
}

// MARK: Transport

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
                response.error?.knownCode == .permissionDenied
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

/// Bytes read from the socket, cut into `\n`-terminated lines of text.
struct LineBuffer {
    /// The longest line accepted; the daemon's own lines are far shorter, so a longer one means
    /// something other than the daemon is on the socket.
    let maximumLineLength: Int
    private var splitter: LineSplitter

    init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
        splitter = LineSplitter(maximumLength: maximumLineLength)
    }

    var isEmpty: Bool { splitter.bufferedByteCount == 0 }

    mutating func append(_ more: some Collection<UInt8>) {
        splitter.append(more)
    }

    /// The next complete line without its `\n` (and without a `\r` before it), or `nil` when no
    /// complete line has arrived yet.
    mutating func nextLine() throws(ClientError) -> String? {
        switch splitter.next() {
        case nil:
            return nil
        case .tooLong?:
            throw .protocolViolation("a line longer than \(maximumLineLength) bytes.")
        case .line(let line)?:
            return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
    }
}
