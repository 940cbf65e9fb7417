/// Bytes read from the socket, cut into `\n`-terminated lines.
struct LineBuffer {
    /// The longest line accepted; the daemon's own lines are far shorter, so a longer one means
    /// something other than the daemon is on the socket.
    let maximumLineLength: Int
    private var bytes: [UInt8] = []
    private var start = 0
    private var searchedUpTo = 0

    init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
    }

    var isEmpty: Bool { start == bytes.count }

    mutating func append(_ more: some Collection<UInt8>) {
        if start > 0, start >= bytes.count / 2 {
            bytes.removeFirst(start)
            searchedUpTo -= start
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The next complete line without its `\n` (and without a `\r` before it), or `nil` when no
    /// complete line has arrived yet.
    mutating func nextLine() throws(ClientError) -> String? {
        guard let newline = bytes[searchedUpTo...].firstIndex(of: UInt8(ascii: "\n")) else {
            searchedUpTo = bytes.count
            if bytes.count - start > maximumLineLength {
                throw .protocolViolation("a line longer than \(maximumLineLength) bytes.")
            }
            return nil
        }
        var end = newline
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        start = newline + 1
        searchedUpTo = start
        return line
    }
}
