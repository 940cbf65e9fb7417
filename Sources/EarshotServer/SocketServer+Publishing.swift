public import EarshotProtocol
import NIOCore

extension SocketServer {
    /// Sends `event` to every client subscribed to its topic. Callable from any thread; it
    /// never waits for a client: it encodes the event once, offers it to each subscriber's
    /// bounded queue under that queue's lock, and wakes the event loops that have new work.
    ///
    /// - Parameter wall: The `wall` stamp; the current time unless given.
    public func publish(_ event: SocketEvent, wall: Double = WallClock.now()) {
        let subscribers = core.registry.subscribers
        guard !subscribers.isEmpty else { return }
        let line = ByteBuffer(bytes: event.jsonLine(wall: wall))
        let deliveryClass = event.deliveryClass
        for subscriber in subscribers {
            switch subscriber.queue.withLock({ $0.offer(line, as: deliveryClass) }) {
            case .skipped, .queued(startDraining: false):
                break
            case .queued(startDraining: true):
                subscriber.scheduleDrain()
            case .replacedOldestLevel, .droppedLevel:
                core.droppedLevels.wrappingAdd(1, ordering: .relaxed)
            case .disconnect:
                core.disconnectedSlowClients.wrappingAdd(1, ordering: .relaxed)
                subscriber.scheduleSlowClientDisconnect()
            }
        }
    }
}
