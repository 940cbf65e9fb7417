import EarshotProtocol
import Logging
public import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
#if canImport(Glibc)
import Glibc
#endif

extension SocketServer {
    /// What the web front door serves: its address and rules, and the bundled page's directory.
    public struct WebConfiguration: Sendable {
        public var access: WebAccess
        /// The directory of the reference page (`index.html` and its assets).
        public var directory: String

        public init(access: WebAccess, directory: String) {
            self.access = access
            self.directory = directory
        }
    }

    /// Serves the web front door until the task is cancelled: the bundled page over HTTP, and at
    /// `/socket` a WebSocket that speaks exactly this server's protocol, one message per line, to
    /// the same command handler and subscribers.
    public func runWeb(_ web: WebConfiguration, onListening: @Sendable (SocketAddress) -> Void = { _ in }) async throws {
        let core = self.core
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                Self.configureWebPipeline(channel, web: web, core: core)
            }
        let serverChannel = try await bootstrap.bind(host: web.access.listen.host, port: web.access.listen.port).get()
        if let address = serverChannel.localAddress { onListening(address) }
        core.logger.info("Serving the web front door", metadata: ["address": "http://\(web.access.listen.hostHeader)/"])
        await withTaskCancellationHandler {
            try? await serverChannel.closeFuture.get()
        } onCancel: {
            serverChannel.close(promise: nil)
        }
        core.logger.info("Stopped serving the web front door")
    }

    private static func configureWebPipeline(_ channel: any Channel, web: WebConfiguration, core: ServerCore) -> EventLoopFuture<Void> {
        let maximumLineLength = core.configuration.maximumLineLength
        // Messages up to this size are read and, past the line limit, answered `line_too_long` as
        // on the Unix socket; a larger one closes the connection (1009), as WebSocket peers expect.
        let maximumMessageSize = max(maximumLineLength * 16, 1 << 20)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maximumMessageSize,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let decision = web.access.decide(
                    method: head.method.rawValue, uri: head.uri,
                    host: head.headers.first(name: "Host"), origin: head.headers.first(name: "Origin")
                )
                // Refused: the file handler answers the request with the reason.
                return channel.eventLoop.makeSucceededFuture(decision == .openSocket ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.pipeline.removeHandler(name: WebFileHandler.name).flatMap {
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers([
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256, maxAccumulatedFrameSize: maximumMessageSize
                            ),
                            WebSocketLines(maximumLineLength: maximumLineLength),
                            ConnectionHandler(core: core, transport: .webSocket),
                        ])
                    }
                }
            }
        )
        return channel.pipeline.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
        ).flatMap {
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    WebFileHandler(web: web, logger: core.logger), name: WebFileHandler.name
                )
            }
        }
    }
}

/// Answers the HTTP requests that are not a WebSocket upgrade: the page's files, and every
/// refusal, with its reason logged (the path without its query, so never the token).
final class WebFileHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "earshot-web-files"
    static let maximumFileBytes = 4 << 20

    private let web: SocketServer.WebConfiguration
    private let logger: Logger
    private var head: HTTPRequestHead?

    init(web: SocketServer.WebConfiguration, logger: Logger) {
        self.web = web
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let decision = web.access.decide(
            method: head.method.rawValue, uri: head.uri,
            host: head.headers.first(name: "Host"), origin: head.headers.first(name: "Origin")
        )
        let path = WebAccess.split(head.uri).path
        switch decision {
        case .serveFile(let name):
            guard let bytes = Self.read(web.directory + "/" + name) else {
                send(status: .internalServerError, type: "text/plain; charset=utf-8",
                     body: Array("The page's file \(name) could not be read.\n".utf8), head: head, context: context)
                logger.error("The web page's file could not be read", metadata: ["file": "\(web.directory)/\(name)"])
                return
            }
            send(status: .ok, type: Self.contentType(of: name), body: bytes, head: head, context: context)
        case .refuse(let status, let reason):
            logger.notice("Refused a web request: \(reason)", metadata: ["method": "\(head.method.rawValue)", "path": "\(path.prefix(200))"])
            send(status: HTTPResponseStatus(statusCode: status), type: "text/plain; charset=utf-8",
                 body: Array("Refused: \(reason).\n".utf8), head: head, context: context, close: path == WebAccess.socketPath)
        case .openSocket:
            // The upgrader takes these; one that reaches here asked without `Upgrade: websocket`.
            send(status: .upgradeRequired, type: "text/plain; charset=utf-8",
                 body: Array("/socket takes a WebSocket connection.\n".utf8), head: head, context: context, close: true)
        }
    }

    private func send(
        status: HTTPResponseStatus, type: String, body: [UInt8], head: HTTPRequestHead, context: ChannelHandlerContext, close: Bool = false
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(
            name: "Content-Security-Policy",
            value: "default-src 'self'; connect-src 'self' ws://\(web.access.listen.hostHeader) ws://localhost:\(web.access.listen.port); frame-ancestors 'none'"
        )
        let keepAlive = head.isKeepAlive && !close
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map(String.init) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    /// The whole file, or nil when it cannot be read (or is too large to be the page's).
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= maximumFileBytes {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
        return nil
    }
}

/// The bundled page's files.
public enum WebPageFiles {
    /// The names of the regular files in `directory` that the page may load (no hidden files,
    /// no subdirectories).
    public static func names(in directory: String) -> Set<String> {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: Set<String> = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), name.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else { continue }
            var status = stat()
            if stat(directory + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG { names.insert(name) }
        }
        return names
    }
}
