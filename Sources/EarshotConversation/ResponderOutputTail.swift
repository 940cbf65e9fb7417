/// The last `limit` bytes of the responder's stderr: enough to say why it failed, however much
/// it logged before.
struct ResponderOutputTail {
    let limit: Int
    private var bytes: [UInt8] = []
    private var wasCut = false

    init(limit: Int = 2048) {
        self.limit = limit
    }

    mutating func append(_ chunk: some Sequence<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > limit {
            bytes.removeFirst(bytes.count - limit)
            wasCut = true
        }
    }

    /// The kept text, trimmed. When older output was dropped it starts at a line's beginning
    /// where there is one, since a line cut in half reads as nonsense.
    var text: String {
        var kept = bytes[...]
        if wasCut {
            if let newline = kept.firstIndex(of: UInt8(ascii: "\n")), newline < kept.endIndex - 1 {
                kept = kept[(newline + 1)...]
            } else {
                kept = kept.drop { $0 & 0xC0 == 0x80 }
            }
        }
        let text = String(decoding: kept, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        return String(trimmed.prefix(trimmed.count - trimmed.reversed().prefix { $0.isWhitespace }.count))
    }
}
