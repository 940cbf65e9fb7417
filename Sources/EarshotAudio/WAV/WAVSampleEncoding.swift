/// How one sample of one channel is stored in a WAV data chunk (always little-endian).
public enum WAVSampleEncoding: Sendable, CaseIterable, CustomStringConvertible {
    /// 8-bit PCM, which WAV stores unsigned with 128 as zero.
    case unsigned8
    /// Two's complement integers, scaled so that -2^(bits-1) is -1.
    case signed16
    case signed24
    case signed32
    /// IEEE floats, nominally in -1...1.
    case float32
    case float64

    public var bytesPerSample: Int {
        switch self {
        case .unsigned8: 1
        case .signed16: 2
        case .signed24: 3
        case .signed32, .float32: 4
        case .float64: 8
        }
    }

    public var bitsPerSample: Int { bytesPerSample * 8 }

    public var isFloat: Bool { self == .float32 || self == .float64 }

    public var formatTag: WAVFormatTag { isFloat ? .ieeeFloat : .pcm }

    public var description: String {
        isFloat ? "\(bitsPerSample)-bit float" : "\(bitsPerSample)-bit PCM"
    }
}
