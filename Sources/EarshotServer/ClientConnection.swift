import EarshotBase
import EarshotProtocol
import NIOCore

/// What the publisher shares with one connection: its outgoing lines, the socket it may write
/// them to itself, and the way to wake its event loop when it may not.
final class ClientConnection: Sendable {
    /// A connection's outgoing side, under one lock: a line is sent under it, so lines from the
    /// publisher and the event loop never interleave.
    struct Outbox: Sendable {
        var queue: SubscriberQueue<ByteBuffer>
        var socket: SubscriberSocket?

        /// Sends a `sendNow` line; `true` when the rest must go through the event loop.
        mutating func send(_ line: ByteBuffer) -> Bool {
            guard let socket, case .sent(let count) = socket.send(line), count < line.readableBytes else {
                return false
            }
            queue.sendFellShort(remainder: line.getSlice(at: line.readerIndex + count, length: line.readableBytes - count)!)
            return true
        }
    }

    /// What became of an offered event.
    enum Delivery: Equatable {
        /// Sent, queued behind a drain under way, or not for this client.
        case handled
        /// Queued (or partly sent): the event loop must drain.
        case drainNeeded
        case droppedLevel
        /// An essential event found the queue full: the client must go.
        case disconnect
        /// The client took nothing for the stall limit while its queue stayed full: it must go.
        case disconnectStalled
    }

    let id: Int
    let channel: any Channel
    let outbox: Locked<Outbox>
    private let handler: NIOLoopBound<ConnectionHandler>

    init(id: Int, channel: any Channel, queueCapacity: Int, stallLimit: Double, handler: ConnectionHandler) {
        self.id = id
        self.channel = channel
        self.outbox = Locked(Outbox(queue: SubscriberQueue(capacity: queueCapacity, stallLimit: stallLimit)))
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    }

    /// Offers a published event; callable from any thread, it never waits for the client.
    func deliver(_ line: ByteBuffer, as deliveryClass: DeliveryClass) -> Delivery {
        outbox.withLock { outbox in
            switch outbox.queue.offer(line, as: deliveryClass, canSendNow: outbox.socket != nil) {
            case .skipped, .queued(startDraining: false): .handled
            case .queued(startDraining: true): .drainNeeded
            case .sendNow: outbox.send(line) ? .drainNeeded : .handled
            case .replacedOldestLevel, .droppedLevel: .droppedLevel
            case .disconnect: .disconnect
            case .disconnectStalled: .disconnectStalled
            }
        }
    }

    /// Gives the connection a socket of its own to send events on.
    func sendDirectly(through socket: SubscriberSocket) {
        outbox.withLock { $0.socket = socket }
    }

    /// Asks the connection's event loop to write out the queue.
    func scheduleDrain() {
        channel.eventLoop.execute { self.handler.value.drainEvents() }
    }

    /// Asks the connection's event loop to drop the client, which could not keep up (`stalled`:
    /// which took nothing at all for the stall limit).
    func scheduleSlowClientDisconnect(stalled: Bool) {
        channel.eventLoop.execute { self.handler.value.disconnectSlowClient(stalled: stalled) }
    }
}
