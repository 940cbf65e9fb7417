import EarshotBase
import EarshotProtocol

/// The socket's path: bytes arrive in two reads (cut where the first byte says), are split into
/// lines under a small limit, and each line is decoded as a request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    let longLines: LineSplitter.LongLines = first & 0x80 == 0 ? .refused : .cut
    var splitter = LineSplitter(maximumLength: 256, longLines: longLines)
    let cut = 1 + Int(first) % bytes.count
    splitter.append(bytes[1..<max(1, cut)])
    decodeLines(&splitter)
    splitter.append(bytes[max(1, cut)...])
    decodeLines(&splitter)
    if let rest = splitter.finish() { _ = RequestDecoder.decode(rest) }
    return 0
}

private func decodeLines(_ splitter: inout LineSplitter) {
    while let line = splitter.next() {
        guard case .line(let text) = line else { continue }
        precondition(text.count <= splitter.maximumLength, "a line longer than the limit came out")
        _ = RequestDecoder.decode(text)
    }
}
