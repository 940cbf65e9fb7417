import EarshotBase
import NIOCore

/// What the publisher shares with one connection: its outbox, and the way to wake the event
/// loop that writes it out.
final class ClientConnection: Sendable {
    let id: Int
    let channel: any Channel
    let outbox: Locked<ClientOutbox>
    private let handler: NIOLoopBound<ConnectionHandler>
    /// Made once: handing an existing closure to the event loop allocates nothing, so the
    /// publisher's wake does not either.
    private let wake: @Sendable () -> Void

    init(id: Int, channel: any Channel, queueCapacity: Int, stallLimit: Double, handler: ConnectionHandler) {
        self.id = id
        self.channel = channel
        self.outbox = Locked(ClientOutbox(capacity: queueCapacity, stallLimit: stallLimit))
        let handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        self.handler = handler
        self.wake = { handler.value.outboxWoken() }
    }

    /// Offers a published event; callable from any thread, it never waits for the client.
    func offer(_ line: ByteBuffer, as deliveryClass: DeliveryClass) -> ClientOutbox.PublishAction {
        outbox.withLock { $0.offer(line, as: deliveryClass) }
    }

    /// Asks the connection's event loop to write out what waits.
    func wakeLoop() {
        channel.eventLoop.execute(wake)
    }

    /// Asks the connection's event loop to drop the client, which could not keep up.
    func scheduleDisconnect(_ reason: ClientOutbox.SlowClient) {
        channel.eventLoop.execute { [handler] in handler.value.disconnectSlowClient(reason) }
    }
}
