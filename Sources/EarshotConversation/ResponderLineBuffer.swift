/// Cuts the responder's stdout into lines of text: at each newline (a carriage return before it
/// is dropped), and every `limit` bytes of a longer line, so that a command printing without
/// newlines cannot make the buffer grow without bound. A cut never splits a UTF-8 character;
/// invalid bytes become U+FFFD.
struct ResponderLineBuffer {
    let limit: Int
    private var bytes: [UInt8] = []

    init(limit: Int = 64 * 1024) {
        self.limit = max(limit, 4)
    }

    /// Adds bytes as they were read and returns the lines they completed.
    mutating func append(_ chunk: some Sequence<UInt8>) -> [String] {
        bytes.append(contentsOf: chunk)
        var lines: [String] = []
        var start = 0
        while start < bytes.count {
            let window = bytes[start..<min(bytes.count, start + limit)]
            if let newline = window.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(Self.text(bytes[start..<newline]))
                start = newline + 1
            } else if window.count == limit {
                let cut = characterBoundary(before: start + limit, after: start)
                lines.append(Self.text(bytes[start..<cut]))
                start = cut
            } else {
                break
            }
        }
        bytes.removeFirst(start)
        return lines
    }

    /// What is left (a last line without a newline), if anything, and starts over empty.
    mutating func finish() -> String? {
        defer { bytes.removeAll() }
        return bytes.isEmpty ? nil : Self.text(bytes[...])
    }

    /// `end`, or the start of the UTF-8 sequence that `end` would cut in two.
    private func characterBoundary(before end: Int, after start: Int) -> Int {
        for back in 1...3 where end - back > start {
            let byte = bytes[end - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return back < length ? end - back : end
        }
        return end
    }

    private static func text(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
    }
}
