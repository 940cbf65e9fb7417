import EarshotProtocol
import NIOCore
import Synchronization

/// What the publisher shares with one connection: its event queue and the way to wake its
/// event loop. The queue is locked only for single offers and batch takes.
final class ClientConnection: Sendable {
    let id: Int
    let channel: any Channel
    let queue: Mutex<SubscriberQueue<ByteBuffer>>
    private let handler: NIOLoopBound<ConnectionHandler>

    init(id: Int, channel: any Channel, queueCapacity: Int, handler: ConnectionHandler) {
        self.id = id
        self.channel = channel
        self.queue = Mutex(SubscriberQueue(capacity: queueCapacity))
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    }

    /// Asks the connection's event loop to write out the queue.
    func scheduleDrain() {
        channel.eventLoop.execute { self.handler.value.drainEvents() }
    }

    /// Asks the connection's event loop to drop the client, which could not keep up.
    func scheduleSlowClientDisconnect() {
        channel.eventLoop.execute { self.handler.value.disconnectSlowClient() }
    }
}
