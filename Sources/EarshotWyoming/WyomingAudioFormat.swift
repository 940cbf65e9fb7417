/// How raw PCM audio is laid out: samples a second, bytes a sample, interleaved channels.
public struct WyomingAudioFormat: Equatable, Sendable {
    /// Hertz.
    public var rate: Int
    /// Bytes a sample (2 for signed 16-bit little-endian).
    public var width: Int
    public var channels: Int

    public init(rate: Int, width: Int, channels: Int) {
        self.rate = rate
        self.width = width
        self.channels = channels
    }

    /// 16 kHz mono 16-bit: what speech-to-text servers expect.
    public static let speech = WyomingAudioFormat(rate: 16_000, width: 2, channels: 1)

    /// Bytes in one frame (one sample of every channel).
    public var bytesPerFrame: Int { width * channels }
}
