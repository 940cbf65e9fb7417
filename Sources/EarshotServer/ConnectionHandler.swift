import EarshotProtocol
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The I/O of one client connection: it feeds lines, results and writability into its
/// ``ConnectionStateMachine`` and performs the actions it returns, and it alone writes to the
/// client: responses and published events, in the order its ``ClientOutbox`` gives them.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = InboundLine
    typealias InboundOut = Never
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Lines taken from the outbox per lock; writability is rechecked between batches.
    private static let drainBatch = 16

    /// How the client reached the server: it decides who checks the peer.
    enum Transport {
        /// A Unix socket: the peer must run as this user (`SO_PEERCRED`).
        case unixSocket
        /// A WebSocket whose upgrade checked the token and origin.
        case webSocket
    }

    private let core: ServerCore
    private let transport: Transport
    private var machine: ConnectionStateMachine
    private var logger: Logger
    private var context: ChannelHandlerContext?
    private var connection: ClientConnection?

    init(core: ServerCore, transport: Transport = .unixSocket) {
        self.core = core
        self.transport = transport
        self.machine = ConnectionStateMachine(maximumLineLength: core.configuration.maximumLineLength)
        self.logger = core.logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // A WebSocket's handler arrives after the upgrade, on a channel long active.
        if transport == .webSocket, context.channel.isActive { begin(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        unregister()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        begin(context: context)
        context.fireChannelActive()
    }

    private func begin(context: ChannelHandlerContext) {
        let connection = ClientConnection(
            id: core.registry.makeID(),
            channel: context.channel,
            queueCapacity: core.configuration.queueCapacity,
            stallLimit: core.configuration.stallLimit,
            handler: self
        )
        logger[metadataKey: "client"] = "\(connection.id)"
        checkPeer(context: context) { [self] sameUser in
            if sameUser {
                guard core.registry.add(connection) else {
                    context.close(promise: nil)
                    return
                }
                self.connection = connection
                logger.debug("Client connected")
            }
            perform(machine.peerChecked(sameUser: sameUser))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.closed()
        if connection != nil { logger.debug("Client disconnected") }
        unregister()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        perform(machine.lineReceived(unwrapInboundIn(data)))
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let isWritable = context.channel.isWritable
        perform(machine.writabilityChanged(isWritable: isWritable))
        if isWritable { drainOutbox() }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent {
            perform(machine.inputEnded())
        }
        context.fireUserInboundEventTriggered(event)
    }

    func read(context: ChannelHandlerContext) {
        perform(machine.readRequested())
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("Client connection failed", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// The publisher woke the loop: write out what waits.
    func outboxWoken() {
        drainOutbox(acknowledgingWake: true)
    }

    /// Writes the outbox's lines while the channel takes them; what is left waits for the
    /// channel to become writable. A wake is acknowledged under the same lock as the first take.
    private func drainOutbox(acknowledgingWake: Bool = false) {
        guard let context, let connection else { return }
        var acknowledgeWake = acknowledgingWake
        while true {
            let isWritable = context.channel.isWritable
            let lines = connection.outbox.withLock { outbox in
                if acknowledgeWake { outbox.woken() }
                return outbox.take(upTo: Self.drainBatch, isWritable: isWritable)
            }
            acknowledgeWake = false
            guard !lines.isEmpty else { return }
            for line in lines {
                context.write(wrapOutboundOut(line), promise: nil)
            }
            context.flush()
            // Fewer than a batch emptied the outbox. A line offered since then wakes the loop
            // (no wake is pending) or waits for the writability change, which drains.
            if lines.count < Self.drainBatch, context.channel.isWritable { return }
        }
    }

    /// The client's queue overflowed with events it must not miss, or the client took nothing
    /// for the stall limit.
    func disconnectSlowClient(_ reason: ClientOutbox.SlowClient) {
        guard let context else { return }
        let configuration = core.configuration
        switch reason {
        case .stalled:
            logger.warning(
                "Disconnecting a client that stopped reading events: it took nothing for \(configuration.stallLimit) s of audio while its level events were replaced",
                metadata: ["queue_capacity": "\(configuration.queueCapacity)"]
            )
        case .queueFull:
            logger.warning(
                "Disconnecting a client that stopped reading events: its queue is full",
                metadata: ["queue_capacity": "\(configuration.queueCapacity)"]
            )
        }
        context.close(promise: nil)
    }

    private func perform(_ first: ConnectionAction) {
        guard let context else { return }
        var action = first
        while true {
            switch action {
            case .none:
                return
            case .respond(let response):
                write(response, context: context)
            case .subscribe(let subscription, let response):
                if let connection {
                    let line = ByteBuffer(bytes: response.jsonLine())
                    connection.outbox.withLock { $0.subscribe(subscription, response: line) }
                    core.registry.setSubscribed(connection, true)
                    drainOutbox()
                } else {
                    write(response, context: context)
                }
            case .unsubscribe(let response):
                if let connection {
                    core.registry.setSubscribed(connection, false)
                    let line = ByteBuffer(bytes: response.jsonLine())
                    connection.outbox.withLock { $0.unsubscribe(response: line) }
                    drainOutbox()
                } else {
                    write(response, context: context)
                }
            case .claimOrRelease(let command, let id):
                write(Response(id: id, result: claimOrRelease(command).result), context: context)
            case .runCommand(let command):
                run(command, context: context)
            case .read:
                context.read()
            case .refuse(let response):
                logger.notice("Refused a client running as another user")
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: response.jsonLine())))
                    .assumeIsolated()
                    .whenComplete { _ in context.close(promise: nil) }
                return
            case .closeAfterWrites:
                // Writes complete in order, so this one completing means every answer is out.
                let rest = connection?.outbox.withLock { $0.closeAfterSending() } ?? []
                for line in rest { context.write(wrapOutboundOut(line), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(ByteBuffer()))
                    .assumeIsolated()
                    .whenComplete { _ in context.close(promise: nil) }
                return
            }
            action = machine.nextAction()
        }
    }

    /// Sends a response after every line before it.
    private func write(_ response: Response, context: ChannelHandlerContext) {
        let line = ByteBuffer(bytes: response.jsonLine())
        guard let connection else {
            context.writeAndFlush(wrapOutboundOut(line), promise: nil)
            return
        }
        connection.outbox.withLock { $0.respond(line) }
        drainOutbox()
    }

    private func run(_ command: Command, context: ChannelHandlerContext) {
        let commandHandler = core.commandHandler
        let promise = context.eventLoop.makePromise(of: CommandResult.self)
        promise.completeWithTask { await commandHandler.handle(command) }
        promise.futureResult.assumeIsolated().whenSuccess { [self] result in
            perform(machine.commandFinished(result))
        }
    }

    /// Claims are the connection's: one not yet registered (still being checked) holds none.
    private func claimOrRelease(_ command: Command) -> ConversationClaim.Action {
        guard let connection else { return .released(held: false) }
        return core.conversation.withLock { claim in
            if case .claim(let holder) = command {
                return claim.claim(client: connection.id, holder: holder)
            }
            return claim.release(client: connection.id)
        }
    }

    private func unregister() {
        guard let connection else { return }
        _ = core.conversation.withLock { $0.disconnected(client: connection.id) }
        core.registry.remove(connection)
        connection.outbox.withLock { $0.close() }
        // The connection holds this handler through its loop-bound reference: let both go.
        self.connection = nil
    }

    /// Calls `body` with whether the peer runs as this process's user (`SO_PEERCRED`); a
    /// WebSocket's peer proved itself with the token instead.
    private func checkPeer(context: ChannelHandlerContext, _ body: @escaping (Bool) -> Void) {
        guard transport == .unixSocket else {
            body(true)
            return
        }
        #if os(Linux)
        guard let provider = context.channel as? any SocketOptionProvider else {
            body(false)
            return
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        let ownUser = getuid()
        credentials.assumeIsolated().whenComplete { [logger] result in
            switch result {
            case .success(let peer):
                body(peer.uid == ownUser)
            case .failure(let error):
                logger.warning("Could not read the peer's credentials", metadata: ["error": "\(error)"])
                body(false)
            }
        }
        #else
        // Elsewhere the directory's 0700 mode is the only guard.
        body(true)
        #endif
    }
}

/// The `struct ucred` that `getsockopt(SO_PEERCRED)` fills in. Glibc's module does not export
/// `ucred` to Swift (it sits behind `_GNU_SOURCE`), so this mirrors its layout: three 32-bit
/// fields in this order.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
