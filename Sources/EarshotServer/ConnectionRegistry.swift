import EarshotBase
import Synchronization

/// The open connections, and the subscribed ones the publisher walks.
final class ConnectionRegistry: Sendable {
    private struct State {
        var connections: [Int: ClientConnection] = [:]
        /// Rebuilt on every change so `publish` copies one array reference under the lock.
        var subscribers: [ClientConnection] = []
        var subscriberIDs: Set<Int> = []
        var isShutDown = false
    }

    private let state = Locked(State())
    private let nextID = Atomic<Int>(1)
    /// `subscribers.count`, readable without the lock (set under it).
    private let subscriberCount = Atomic<Int>(0)

    func makeID() -> Int {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Adds a connection; `false` once the server is shutting down (close it instead).
    func add(_ connection: ClientConnection) -> Bool {
        state.withLock { state in
            guard !state.isShutDown else { return false }
            state.connections[connection.id] = connection
            return true
        }
    }

    func remove(_ connection: ClientConnection) {
        state.withLock { state in
            state.connections[connection.id] = nil
            if state.subscriberIDs.remove(connection.id) != nil {
                state.subscribers.removeAll { $0.id == connection.id }
            }
            subscriberCount.store(state.subscribers.count, ordering: .relaxed)
        }
    }

    func setSubscribed(_ connection: ClientConnection, _ subscribed: Bool) {
        state.withLock { state in
            guard state.connections[connection.id] != nil else { return }
            if subscribed, state.subscriberIDs.insert(connection.id).inserted {
                state.subscribers.append(connection)
            } else if !subscribed, state.subscriberIDs.remove(connection.id) != nil {
                state.subscribers.removeAll { $0.id == connection.id }
            }
            subscriberCount.store(state.subscribers.count, ordering: .relaxed)
        }
    }

    /// Whether any connection is subscribed, without taking the lock: a publisher with nothing
    /// to hand out need not make the event.
    var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

    var subscribers: [ClientConnection] {
        state.withLock { $0.subscribers }
    }

    var all: [ClientConnection] {
        state.withLock { Array($0.connections.values) }
    }

    var count: Int {
        state.withLock { $0.connections.count }
    }

    /// Refuses new connections from now on and hands back the open ones to close.
    func shutDown() -> [ClientConnection] {
        state.withLock { state in
            state.isShutDown = true
            return Array(state.connections.values)
        }
    }
}
