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
        let refusals = await EventLoopScheduling.stopPreemptingOnWake(eventLoopGroup)
        if let refusal = refusals.first {
            core.logger.debug(
                "The event loops may preempt the capture thread when they wake: the kernel refused SCHED_BATCH",
                metadata: ["errno": "\(refusal)", "loops": "\(refusals.count)"])
        }
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
        /// Events besides `level` readings each subscriber may have waiting.
        public var queueCapacity = ClientOutbox.defaultCapacity
        /// Seconds of audio a subscriber may go without taking anything while its level readings
        /// are being replaced, before it is disconnected (see `ClientOutbox`).
        public var stallLimit = ClientOutbox.defaultStallLimit
        /// NIO's write buffer bounds per client: above `high` the channel is unwritable and events
        /// wait in the client's outbox; below `low` they flow again.
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
        /// `level` events a subscriber's newer reading replaced before its event loop took them.
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
    /// Hands `event` to every client subscribed to its topic. Callable from any thread; it never
    /// waits for a client and does no socket I/O: it encodes the event once, puts the line in
    /// each subscriber's outbox under that outbox's lock, and wakes the subscriber's event loop
    /// when none is pending. The event loop writes the line.
    ///
    /// A `level` event allocates nothing here: it is encoded into a buffer kept for levels and
    /// copied into each subscriber's level slot.
    ///
    /// Whether any client is subscribed now: a publisher may skip making an event nobody takes.
    public var hasSubscribers: Bool { core.registry.hasSubscribers }

    /// - Parameter wall: The `wall` stamp; the current time unless given.
    public func publish(_ event: SocketEvent, wall: Double = WallClock.now()) {
        let subscribers = core.registry.subscribers
        guard !subscribers.isEmpty else { return }
        let deliveryClass = event.deliveryClass
        if case .level = deliveryClass {
            core.levelLine.withLock { levelLine in
                levelLine.encode(event, wall: wall)
                hand(levelLine.line, as: deliveryClass, to: subscribers)
            }
        } else {
            hand(ByteBuffer(bytes: event.jsonLine(wall: wall)), as: deliveryClass, to: subscribers)
        }
    }

    private func hand(_ line: ByteBuffer, as deliveryClass: DeliveryClass, to subscribers: [ClientConnection]) {
        // Indexed, not iterated: a debug build's unspecialized iterator allocates for each
        // element, and this runs on the audio thread.
        var index = 0
        while index < subscribers.count {
            let subscriber = subscribers[index]
            index += 1
            switch subscriber.offer(line, as: deliveryClass) {
            case .none:
                break
            case .wakeLoop:
                subscriber.wakeLoop()
            case .droppedLevel:
                core.droppedLevels.wrappingAdd(1, ordering: .relaxed)
            case .disconnect(let reason):
                core.disconnectedSlowClients.wrappingAdd(1, ordering: .relaxed)
                subscriber.scheduleDisconnect(reason)
            }
        }
    }
}

extension SocketServer {
    /// How far behind one client is: the lines waiting in its outbox (events and responses in
    /// its queue, level readings in their slots) and the bytes NIO holds for its socket. All stay
    /// bounded however long a client stops reading.
    struct ClientBacklog: Hashable, Sendable {
        var queuedLines: Int
        var waitingLevels: Int
        /// Readings of this client's replaced before its event loop took them.
        var droppedLevels: Int
        var bufferedBytes: Int
    }

    /// The backlog of every connected client, for diagnostics. Each is read on the client's
    /// event loop, after whatever the loop was asked to do before.
    func clientBacklogs() async throws -> [ClientBacklog] {
        var backlogs: [ClientBacklog] = []
        for connection in core.registry.all {
            let buffered = try await connection.channel.getOption(ChannelOptions.bufferedWritableBytes).get()
            let (queued, levels, dropped) = connection.outbox.withLock { $0.backlog }
            backlogs.append(ClientBacklog(queuedLines: queued, waitingLevels: levels, droppedLevels: dropped, bufferedBytes: buffered))
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
