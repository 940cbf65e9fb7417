import NIOCore
import NIOWebSocket

/// Makes a WebSocket look like the Unix socket to ``ConnectionHandler``: each text message in
/// is one line (`InboundLine`), each line out (a JSON line ending in a newline) one text message.
///
/// Pings are answered, a close is returned and ends the connection, a binary message is a
/// protocol error (close 1003). The empty buffer the connection writes before closing becomes
/// the WebSocket's close frame.
final class WebSocketLines: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = InboundLine
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private let maximumLineLength: Int
    private var sentClose = false

    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var payload = frame.unmaskedData
            if payload.readableBytes > maximumLineLength {
                context.fireChannelRead(wrapInboundOut(.tooLong))
            } else {
                let bytes = payload.readBytes(length: payload.readableBytes) ?? []
                context.fireChannelRead(wrapInboundOut(.line(bytes)))
            }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            close(context: context, code: .normalClosure)
        case .binary:
            close(context: context, code: .unacceptableData)
        default:
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var line = unwrapOutboundIn(data)
        guard line.readableBytes > 0 else {
            // The connection's last write: what it wrote before is out once this completes.
            writeClose(context: context, code: .normalClosure, promise: promise)
            return
        }
        if line.getInteger(at: line.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "\n") {
            line.moveWriterIndex(to: line.writerIndex - 1)
        }
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: line)), promise: promise)
    }

    private func close(context: ChannelHandlerContext, code: WebSocketErrorCode) {
        let closed = context.eventLoop.makePromise(of: Void.self)
        writeClose(context: context, code: code, promise: closed)
        closed.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func writeClose(context: ChannelHandlerContext, code: WebSocketErrorCode, promise: EventLoopPromise<Void>?) {
        guard !sentClose else {
            context.flush()
            promise?.succeed()
            return
        }
        sentClose = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: promise)
    }
}
