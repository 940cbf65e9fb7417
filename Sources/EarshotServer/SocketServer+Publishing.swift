public import EarshotProtocol
import NIOCore

extension SocketServer {
    /// Sends `event` to every client subscribed to its topic. Callable from any thread; it
    /// never waits for a client: it encodes the event once and, for each subscriber, under its
    /// outbox's lock, either hands the line to the socket (nothing waits before it) or queues it
    /// and wakes the event loop that must drain.
    ///
    /// - Parameter wall: The `wall` stamp; the current time unless given.
    public func publish(_ event: SocketEvent, wall: Double = WallClock.now()) {
        let subscribers = core.registry.subscribers
        guard !subscribers.isEmpty else { return }
        let line = ByteBuffer(bytes: event.jsonLine(wall: wall))
        let deliveryClass = event.deliveryClass
        for subscriber in subscribers {
            switch subscriber.deliver(line, as: deliveryClass) {
            case .handled:
                break
            case .drainNeeded:
                subscriber.scheduleDrain()
            case .droppedLevel:
                core.droppedLevels.wrappingAdd(1, ordering: .relaxed)
            case .disconnect:
                core.disconnectedSlowClients.wrappingAdd(1, ordering: .relaxed)
                subscriber.scheduleSlowClientDisconnect()
            }
        }
    }
}
