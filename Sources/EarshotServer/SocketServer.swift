public import EarshotProtocol
public import Logging
public import NIOCore
public import NIOPosix
import Synchronization

/// The daemon's Unix-socket server: JSON-line requests answered through a ``CommandHandler``,
/// and events pushed to subscribers with ``publish(_:wall:)``.
///
/// ``run()`` serves until its task is cancelled, so a swift-service-lifecycle `Service` can
/// wrap it.
public final class SocketServer: Sendable {
    let core: ServerCore
    let eventLoopGroup: any EventLoopGroup
    private let started = Atomic<Bool>(false)

    /// - Parameter logger: Where connections, refusals and slow clients are logged; silent
    ///   unless given.
    public init(
        configuration: Configuration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "earshotd.socket", factory: { _ in SwiftLogNoOpLogHandler() }),
        handler: some CommandHandler
    ) {
        self.core = ServerCore(configuration: configuration, logger: logger, commandHandler: handler)
        self.eventLoopGroup = eventLoopGroup
    }

    public var configuration: Configuration {
        core.configuration
    }

    /// Serves until the task is cancelled, then closes every connection and removes the socket
    /// file. Throws if it cannot start listening, e.g. ``SocketServerError/alreadyRunning(path:)``.
    public func run() async throws {
        try await run(onListening: {})
    }

    /// ``run()``, calling `onListening` once clients can connect.
    public func run(onListening: @Sendable () -> Void) async throws {
        guard !started.exchange(true, ordering: .relaxed) else { throw SocketServerError.alreadyStarted }
        let bootstrap = makeBootstrap()
        let serverChannel: any Channel
        let socketFile: SocketFile?
        switch core.configuration.endpoint {
        case .path(let path):
            let file = try SocketFile.claim(path: path)
            do {
                serverChannel = try await bootstrap.bind(unixDomainSocketPath: path).get()
            } catch {
                file.release()
                throw error
            }
            do {
                try file.restrictMode()
            } catch {
                try? await serverChannel.close()
                file.release()
                throw error
            }
            socketFile = file
            core.logger.info("Listening", metadata: ["socket": "\(path)"])
        case .listeningDescriptor(let descriptor):
            serverChannel = try await bootstrap.withBoundSocket(descriptor).get()
            socketFile = nil
            core.logger.info("Listening", metadata: ["socket_descriptor": "\(descriptor)"])
        }
        onListening()

        await withTaskCancellationHandler {
            try? await serverChannel.closeFuture.get()
        } onCancel: {
            serverChannel.close(promise: nil)
        }

        let open = core.registry.shutDown()
        for connection in open {
            connection.channel.close(promise: nil)
        }
        for connection in open {
            try? await connection.channel.closeFuture.get()
        }
        socketFile?.release()
        core.logger.info("Stopped listening")
    }

    private func makeBootstrap() -> ServerBootstrap {
        let configuration = core.configuration
        var bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            // A client that shuts down its sending side still gets its answers.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark,
                value: ChannelOptions.Types.WriteBufferWaterMark(
                    low: configuration.writeBufferLowWaterMark,
                    high: configuration.writeBufferHighWaterMark
                )
            )
        if let size = configuration.sendBufferSize {
            bootstrap = bootstrap.childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        let core = self.core
        return bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineFrameDecoder(maximumLength: configuration.maximumLineLength))
                )
                try channel.pipeline.syncOperations.addHandler(ConnectionHandler(core: core))
            }
        }
    }
}

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
        /// Seconds of audio a subscriber's full queue may go without the client taking anything
        /// before it is disconnected (see `SubscriberQueue`).
        public var stallLimit = SubscriberQueue<ByteBuffer>.defaultStallLimit
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
                subscriber.scheduleSlowClientDisconnect(stalled: false)
            case .disconnectStalled:
                core.disconnectedSlowClients.wrappingAdd(1, ordering: .relaxed)
                subscriber.scheduleSlowClientDisconnect(stalled: true)
            }
        }
    }
}

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

/// Runs the commands that reach the daemon's state: everything but `subscribe` and
/// `unsubscribe`, which the server answers itself.
///
/// Each connection waits for one command's result before running its next, so responses go
/// out in request order; different connections call concurrently.
public protocol CommandHandler: Sendable {
    func handle(_ command: Command) async -> CommandResult
}
