import EarshotBase
public import Foundation

/// Many front ends on the daemon's socket at once: `readers` clients subscribed to state, speech
/// and levels, each read by a thread of its own that logs the state changes it sees, and
/// `stalled` clients subscribed the same way that never read a byte after their `subscribe`.
public final class SocketCrowd: Sendable {
    public struct StateChange: Hashable, Sendable, CustomStringConvertible {
        public var state: String
        public var turn: Int
        public var t: Double

        public var description: String { "\(state)-\(turn)@\(String(format: "%.2f", t))" }
    }

    /// What one reading client saw.
    public struct ReaderLog: Sendable {
        public var states: [StateChange] = []
        public var levels = 0
        /// Lines that were not JSON objects.
        public var malformed = 0
        /// Whether the daemon closed the connection.
        public var closed = false
    }

    private let logs: [Locked<ReaderLog>]
    private let stopping = Locked(false)
    private let finished = DispatchSemaphore(value: 0)
    private let stalledClients: Locked<[LineSocket]>

    public init(socketPath: String, readers: Int, stalled: Int, levelHz: Int = 60) throws {
        let subscribe = #"{"id":"crowd","cmd":"subscribe","topics":["state","speech","level"],"level_hz":\#(levelHz)}"#
        func subscribedClient() throws -> LineSocket {
            let client = try LineSocket(path: socketPath)
            var early: [[String: Any]] = []
            let response = try client.request(subscribe, events: &early, timeout: 10)
            guard response["ok"] as? Bool == true else { throw LineSocket.Failure(description: "subscribe failed: \(response)") }
            return client
        }
        stalledClients = Locked(try (0..<stalled).map { _ in try subscribedClient() })
        let clients = try (0..<readers).map { _ in try subscribedClient() }
        logs = clients.map { _ in Locked(ReaderLog()) }
        for (client, log) in zip(clients, logs) {
            let box = UncheckedBox(client)
            Thread { [stopping, finished] in
                Self.read(box.value, into: log, until: stopping)
                finished.signal()
            }.start()
        }
    }

    /// Stops the readers and returns what each saw.
    public func finish() -> [ReaderLog] {
        stopping.withLock { $0 = true }
        for _ in logs { finished.wait() }
        return logs.map { $0.withLock { $0 } }
    }

    /// For each stalled client, whether the daemon has closed its connection: what it sent is
    /// read now, and then the end of the stream must come within `timeout`.
    public func stalledClientsClosed(timeout: TimeInterval) -> [Bool] {
        stalledClients.withLock { clients in clients.map { $0.readUntilClosed(timeout: timeout) } }
    }

    private static func read(_ client: LineSocket, into log: Locked<ReaderLog>, until stopping: Locked<Bool>) {
        let statePrefix = #"{"event":"state""#
        while !stopping.withLock({ $0 }) {
            guard let line = client.readLine(timeout: 0.2) else {
                if client.isClosed { log.withLock { $0.closed = true } }
                if client.isClosed { return }
                continue
            }
            guard line.hasPrefix(statePrefix) else {
                if line.hasPrefix(#"{"event":"level""#) { log.withLock { $0.levels += 1 } }
                continue
            }
            guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let state = event["state"] as? String, let turn = event["turn"] as? Int, let t = event["t"] as? Double else {
                log.withLock { $0.malformed += 1 }
                continue
            }
            log.withLock { $0.states.append(StateChange(state: state, turn: turn, t: t)) }
        }
    }
}

/// Hands a value to the one thread that uses it from then on.
public final class UncheckedBox<Value>: @unchecked Sendable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }
}
