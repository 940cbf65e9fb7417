import EarshotJSON

/// Bytes read from the socket, cut into `\n`-terminated lines of text.
struct LineBuffer {
    /// The longest line accepted; the daemon's own lines are far shorter, so a longer one means
    /// something other than the daemon is on the socket.
    let maximumLineLength: Int
    private var splitter: LineSplitter

    init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
        splitter = LineSplitter(maximumLength: maximumLineLength)
    }

    var isEmpty: Bool { splitter.bufferedByteCount == 0 }

    mutating func append(_ more: some Collection<UInt8>) {
        splitter.append(more)
    }

    /// The next complete line without its `\n` (and without a `\r` before it), or `nil` when no
    /// complete line has arrived yet.
    mutating func nextLine() throws(ClientError) -> String? {
        switch splitter.next() {
        case nil:
            return nil
        case .tooLong?:
            throw .protocolViolation("a line longer than \(maximumLineLength) bytes.")
        case .line(let line)?:
            return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
    }
}
