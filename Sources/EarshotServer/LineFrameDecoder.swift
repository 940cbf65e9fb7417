import EarshotBase
public import NIOCore

/// Splits the byte stream into `\n`-terminated lines of at most `maximumLength` bytes
/// (`LineSplitter`): a longer line is reported once, as soon as it is known to be too long, and
/// dropped up to its newline; the lines after it are read normally.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = InboundLine

    public var maximumLength: Int { splitter.maximumLength }
    private var splitter: LineSplitter

    public init(maximumLength: Int) {
        splitter = LineSplitter(maximumLength: maximumLength)
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        splitter.append(buffer.readableBytesView)
        buffer.moveReaderIndex(to: buffer.writerIndex)
        // Every line the bytes completed goes now: NIO calls again only when more bytes arrive.
        while let line = splitter.next() { context.fireChannelRead(wrapInboundOut(InboundLine(line))) }
        return .needMoreData
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        // The client ended without a final newline: its last line is still a line.
        if let last = splitter.finish() { context.fireChannelRead(wrapInboundOut(.line(Array(last)))) }
        return .needMoreData
    }
}

/// What the line framer passes on: a line without its newline, or the notice that a line was
/// longer than the limit (it is discarded up to its newline).
public enum InboundLine: Hashable, Sendable {
    case line([UInt8])
    case tooLong
}

extension InboundLine {
    /// What the splitter found, as the connection takes it.
    init(_ line: LineSplitter.Line) {
        switch line {
        case .line(let bytes): self = .line(Array(bytes))
        case .tooLong: self = .tooLong
        }
    }
}
