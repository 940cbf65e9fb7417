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

/// The encoding code in a WAV fmt chunk (`wFormatTag`), e.g. 1 for PCM.
public struct WAVFormatTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Integer PCM.
    public static let pcm = WAVFormatTag(rawValue: 0x0001)
    /// IEEE 754 floating point.
    public static let ieeeFloat = WAVFormatTag(rawValue: 0x0003)
    public static let aLaw = WAVFormatTag(rawValue: 0x0006)
    public static let muLaw = WAVFormatTag(rawValue: 0x0007)
    public static let imaADPCM = WAVFormatTag(rawValue: 0x0011)
    /// The real encoding is named by a sub-format GUID in the fmt chunk's extension.
    public static let extensible = WAVFormatTag(rawValue: 0xFFFE)

    /// Human name of the encoding, if it is a well-known one.
    public var name: String? {
        switch rawValue {
        case 0x0000: "unknown"
        case 0x0001: "PCM"
        case 0x0002: "Microsoft ADPCM"
        case 0x0003: "IEEE float"
        case 0x0006: "A-law"
        case 0x0007: "µ-law"
        case 0x0011: "IMA ADPCM"
        case 0x0014: "G.723 ADPCM"
        case 0x0022: "DSP Group TrueSpeech"
        case 0x0031: "GSM 6.10"
        case 0x0040: "G.721 ADPCM"
        case 0x0050: "MPEG audio"
        case 0x0055: "MP3"
        case 0x0064: "G.726 ADPCM"
        case 0x00FF: "AAC"
        case 0x0160, 0x0161: "Windows Media Audio"
        case 0x0162: "Windows Media Audio Pro"
        case 0x0163: "Windows Media Audio Lossless"
        case 0x0401: "Intel Music Coder"
        case 0x1610: "MPEG-4 AAC"
        case 0x2000: "Dolby AC-3"
        case 0x2001: "DTS"
        case 0x6750: "Ogg Vorbis"
        case 0xF1AC: "FLAC"
        case 0xFFFE: "WAVE_FORMAT_EXTENSIBLE"
        default: nil
        }
    }

    /// For example "IMA ADPCM (format 0x0011)".
    public var description: String {
        let code = String(rawValue, radix: 16, uppercase: true)
        let hex = "0x" + String(repeating: "0", count: max(0, 4 - code.count)) + code
        return "\(name ?? "an unknown encoding") (format \(hex))"
    }
}
