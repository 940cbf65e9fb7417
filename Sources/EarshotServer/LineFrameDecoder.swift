public import NIOCore

/// Splits the byte stream into `\n`-terminated lines of at most `maximumLength` bytes.
///
/// A longer line is reported once, as soon as it is known to be too long, and its bytes are
/// thrown away as they arrive up to the next newline; the lines after it are read normally.
/// Memory stays bounded by the limit whatever the client sends.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = InboundLine

    public let maximumLength: Int
    /// Inside an over-long line: drop bytes until its newline.
    private var discarding = false
    /// How many readable bytes were already searched for a newline, so a line arriving in many
    /// small reads is scanned once, not once per read.
    private var scanned = 0

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view[(view.startIndex + scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
            if discarding {
                buffer.moveReaderIndex(to: buffer.writerIndex)
                scanned = 0
            } else if view.count > maximumLength {
                discarding = true
                buffer.moveReaderIndex(to: buffer.writerIndex)
                scanned = 0
                context.fireChannelRead(wrapInboundOut(.tooLong))
            } else {
                scanned = view.count
            }
            return .needMoreData
        }
        let length = newline - view.startIndex
        scanned = 0
        if discarding {
            discarding = false
            buffer.moveReaderIndex(forwardBy: length + 1)
        } else if length > maximumLength {
            buffer.moveReaderIndex(forwardBy: length + 1)
            context.fireChannelRead(wrapInboundOut(.tooLong))
        } else {
            let line = buffer.readBytes(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.line(line)))
        }
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // The client ended without a final newline: its last line is still a line.
        if !discarding, buffer.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(.line(buffer.readBytes(length: buffer.readableBytes)!)))
        }
        discarding = false
        scanned = 0
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
