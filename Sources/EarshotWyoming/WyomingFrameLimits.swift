/// How large the parts of one incoming event may be. Anything larger is refused before it is
/// buffered, so a broken or hostile peer cannot make the reader hold unbounded memory.
public struct WyomingFrameLimits: Equatable, Sendable {
    /// Bytes in the header line, newline excluded.
    public var maximumHeaderLength: Int
    /// Bytes in the separate data block.
    public var maximumDataLength: Int
    /// Bytes of payload; an audio chunk is usually a few kilobytes.
    public var maximumPayloadLength: Int

    public init(maximumHeaderLength: Int = 64 * 1024, maximumDataLength: Int = 1024 * 1024, maximumPayloadLength: Int = 16 * 1024 * 1024) {
        self.maximumHeaderLength = maximumHeaderLength
        self.maximumDataLength = maximumDataLength
        self.maximumPayloadLength = maximumPayloadLength
    }
}
