extension SocketServer {
    public struct Configuration: Sendable {
        /// Where the server listens.
        public enum Endpoint: Hashable, Sendable {
            /// A socket file the server creates (directory 0700, socket 0600) and removes.
            case path(String)
            /// A socket someone else bound and is listening on (systemd socket activation);
            /// the server neither creates nor removes any file.
            case listeningDescriptor(Int32)
        }

        public var endpoint: Endpoint
        /// Lines longer than this many bytes (before the newline) get `line_too_long`.
        public var maximumLineLength = 65_536
        /// Events each subscriber may have waiting.
        public var queueCapacity = 256
        /// NIO's write buffer bounds per client: above `high` the channel is unwritable and events
        /// wait in the client's queue; below `low` they flow again.
        public var writeBufferLowWaterMark = 16 * 1024
        public var writeBufferHighWaterMark = 64 * 1024
        /// `SO_SNDBUF` for client sockets; `nil` keeps the system's default. Smaller values make a
        /// stuck client's backlog reach its queue sooner (the tests use this).
        public var sendBufferSize: Int?

        public init(endpoint: Endpoint) {
            self.endpoint = endpoint
        }

        /// Listens on a socket file at `path`.
        public init(path: String) {
            self.init(endpoint: .path(path))
        }
    }
}
