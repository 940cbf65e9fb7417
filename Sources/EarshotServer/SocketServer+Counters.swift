extension SocketServer {
    /// What `status` reports about the socket.
    public struct Counters: Hashable, Sendable {
        /// Clients connected now (refused peers are not counted).
        public var clients: Int
        /// `level` events dropped because a subscriber's queue was full.
        public var droppedLevels: Int
        /// Clients disconnected because an essential event would not fit in their queue.
        public var disconnectedSlowClients: Int

        public init(clients: Int, droppedLevels: Int, disconnectedSlowClients: Int) {
            self.clients = clients
            self.droppedLevels = droppedLevels
            self.disconnectedSlowClients = disconnectedSlowClients
        }
    }

    public var counters: Counters {
        Counters(
            clients: core.registry.count,
            droppedLevels: core.droppedLevels.load(ordering: .relaxed),
            disconnectedSlowClients: core.disconnectedSlowClients.load(ordering: .relaxed)
        )
    }
}
