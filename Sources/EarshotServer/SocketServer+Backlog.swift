import NIOCore

extension SocketServer {
    /// How far behind one client is: the events waiting in its queue and the bytes NIO holds
    /// for its socket. Both stay bounded however long a client stops reading.
    struct ClientBacklog: Hashable, Sendable {
        var queuedEvents: Int
        var bufferedBytes: Int
        /// Whether events go to the socket from the publishing thread (see `SubscriberSocket`).
        var sendsDirectly: Bool
    }

    /// The backlog of every connected client, for diagnostics.
    func clientBacklogs() async throws -> [ClientBacklog] {
        var backlogs: [ClientBacklog] = []
        for connection in core.registry.all {
            let (queued, direct) = connection.outbox.withLock { ($0.queue.count, $0.socket != nil) }
            let buffered = try await connection.channel.getOption(ChannelOptions.bufferedWritableBytes).get()
            backlogs.append(ClientBacklog(queuedEvents: queued, bufferedBytes: buffered, sendsDirectly: direct))
        }
        return backlogs
    }
}
