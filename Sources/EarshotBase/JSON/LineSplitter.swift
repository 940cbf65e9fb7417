/// Cuts a byte stream, fed in reads of any size, into `\n`-terminated lines of at most
/// `maximumLength` bytes, keeping a partial last line until its newline arrives. Memory stays
/// bounded by the limit whatever the other end sends.
///
/// A longer line is either refused (reported once as ``Line/tooLong`` as soon as it is known to
/// be too long, its bytes dropped up to its newline, the lines after it read normally) or cut
/// into lines of `maximumLength` bytes that never split a UTF-8 character.
public struct LineSplitter: Sendable {
    /// What becomes of a line longer than the limit.
    public enum LongLines: Sendable {
        /// Reported as ``Line/tooLong`` and dropped up to its newline.
        case refused
        /// Cut every `maximumLength` bytes gathered without a newline (at the last whole
        /// character), each piece a line of its own.
        case cut
    }

    /// What ``next()`` found.
    public enum Line: Hashable, Sendable {
        /// A line without its `\n` (a `\r` before it is kept).
        case line(ArraySlice<UInt8>)
        /// A line longer than the limit (``LongLines/refused`` only).
        case tooLong
    }

    public let maximumLength: Int
    public let longLines: LongLines
    private var bytes: [UInt8] = []
    /// Where unread bytes begin in `bytes`.
    private var start = 0
    /// Unread bytes before this index hold no newline: a line arriving in many small reads is
    /// scanned once, not once per read.
    private var searchedUpTo = 0
    /// Inside a refused line: its bytes are dropped until its newline.
    private var discarding = false

    public init(maximumLength: Int, longLines: LongLines = .refused) {
        // A cut must leave room for a whole character of up to 4 bytes.
        self.maximumLength = longLines == .cut ? max(maximumLength, 4) : maximumLength
        self.longLines = longLines
    }

    /// Bytes fed but not yet returned: a partial line, or bytes not yet taken as a block.
    public var bufferedByteCount: Int { bytes.count - start }

    /// The bytes fed but not yet returned.
    public var bufferedBytes: ArraySlice<UInt8> { bytes[start...] }

    public mutating func append(_ more: some Sequence<UInt8>) {
        if start > 0, start >= bytes.count / 2 {
            bytes.removeFirst(start)
            searchedUpTo -= start
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The next line, or nil until more bytes arrive.
    public mutating func next() -> Line? {
        while true {
            // A line within the limit has its newline within the limit's bytes (plus the newline).
            let window = discarding || bufferedByteCount <= windowLength ? bytes.count : start + windowLength
            guard let newline = bytes[searchedUpTo..<window].firstIndex(of: UInt8(ascii: "\n")) else {
                searchedUpTo = window
                return unterminated(searched: window)
            }
            let line = bytes[start..<newline]
            start = newline + 1
            searchedUpTo = start
            if discarding {
                discarding = false
                continue
            }
            return .line(line)
        }
    }

    /// The next `count` bytes as they are, not as lines (a block whose length a line announced,
    /// as Wyoming's data and payload), or nil until they have all arrived.
    public mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard bufferedByteCount >= count else { return nil }
        defer {
            start += count
            searchedUpTo = max(searchedUpTo, start)
        }
        return bytes[start..<start + count]
    }

    /// At the end of the stream, after ``next()`` returned nil: the last line, which had no
    /// newline, if there is one (not the rest of a refused line). The splitter starts over empty.
    public mutating func finish() -> ArraySlice<UInt8>? {
        defer {
            bytes.removeAll()
            start = 0
            searchedUpTo = 0
            discarding = false
        }
        return discarding || start == bytes.count ? nil : bytes[start...]
    }

    private var windowLength: Int {
        switch longLines {
        case .refused: maximumLength < Int.max ? maximumLength + 1 : maximumLength
        case .cut: maximumLength
        }
    }

    /// No newline up to `searched`: a refused line is dropped as it arrives, a line known to be too
    /// long is refused or cut, anything else waits for more bytes.
    private mutating func unterminated(searched: Int) -> Line? {
        if discarding {
            start = bytes.count
            searchedUpTo = start
            return nil
        }
        guard searched - start == windowLength else { return nil }
        switch longLines {
        case .refused:
            discarding = true
            start = searched
            return .tooLong
        case .cut:
            let cut = characterBoundary(before: searched)
            defer {
                start = cut
                searchedUpTo = cut
            }
            return .line(bytes[start..<cut])
        }
    }

    /// `end`, or the start of the UTF-8 sequence that `end` would cut in two (never `start`).
    private func characterBoundary(before end: Int) -> Int {
        for back in 1...3 where end - back > start {
            let byte = bytes[end - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return back < length ? end - back : end
        }
        return end
    }
}
