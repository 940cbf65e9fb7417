import EarshotJSON

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
