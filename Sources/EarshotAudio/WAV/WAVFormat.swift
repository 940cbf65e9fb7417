/// The layout of the audio in a WAV file's data chunk.
public struct WAVFormat: Equatable, Sendable, CustomStringConvertible {
    /// Sample frames per second.
    public var sampleRate: Int
    /// Interleaved channels per sample frame.
    public var channels: Int
    public var encoding: WAVSampleEncoding

    public init(sampleRate: Int, channels: Int, encoding: WAVSampleEncoding) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.encoding = encoding
    }

    /// Bytes of one sample for every channel (`nBlockAlign`).
    public var bytesPerFrame: Int { channels * encoding.bytesPerSample }

    public var description: String {
        "\(encoding), \(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")"
    }
}
