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
    private let eventLoopGroup: any EventLoopGroup
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
