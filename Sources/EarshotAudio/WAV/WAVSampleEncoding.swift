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

// MARK: - Decoding

extension WAVSampleEncoding {
    /// Converts `frames` interleaved sample frames at `source` to mono floats in -1...1, averaging stereo.
    func decodeMono(
        from source: UnsafeRawPointer, frames: Int, channels: Int, into destination: UnsafeMutablePointer<Float>
    ) {
        switch self {
        case .unsigned8:
            Self.convert(source, frames, channels, 1, destination) { Float(Int16($0.load(as: UInt8.self)) - 128) * 0x1p-7 }
        case .signed16:
            Self.convert(source, frames, channels, 2, destination) {
                Float(Int16(littleEndian: $0.loadUnaligned(as: Int16.self))) * 0x1p-15
            }
        case .signed24:
            Self.convert(source, frames, channels, 3, destination) {
                let low = UInt32($0.load(as: UInt8.self))
                let middle = UInt32($0.load(fromByteOffset: 1, as: UInt8.self))
                let high = UInt32($0.load(fromByteOffset: 2, as: UInt8.self))
                // The 24-bit value goes to the top of a 32-bit word so the shift back sign-extends it.
                return Float(Int32(bitPattern: (low << 8) | (middle << 16) | (high << 24)) >> 8) * 0x1p-23
            }
        case .signed32:
            Self.convert(source, frames, channels, 4, destination) {
                Float(Int32(littleEndian: $0.loadUnaligned(as: Int32.self))) * 0x1p-31
            }
        case .float32:
            Self.convert(source, frames, channels, 4, destination) {
                Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)))
            }
        case .float64:
            Self.convert(source, frames, channels, 8, destination) {
                Float(Double(bitPattern: UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))))
            }
        }
    }

    @inline(__always)
    private static func convert(
        _ source: UnsafeRawPointer, _ frames: Int, _ channels: Int, _ bytesPerSample: Int,
        _ destination: UnsafeMutablePointer<Float>, _ sample: (UnsafeRawPointer) -> Float
    ) {
        if channels == 1 {
            for index in 0..<frames {
                destination[index] = sample(source + index * bytesPerSample)
            }
        } else {
            let stride = 2 * bytesPerSample
            for index in 0..<frames {
                let frame = source + index * stride
                destination[index] = (sample(frame) + sample(frame + bytesPerSample)) * 0.5
            }
        }
    }
}

// MARK: - Encoding

extension WAVSampleEncoding {
    /// Stores `samples` at `destination` in this encoding; integer encodings clamp to -1...1 (NaN becomes 0).
    func encode(_ samples: UnsafeBufferPointer<Float>, into destination: UnsafeMutableRawPointer) {
        switch self {
        case .unsigned8:
            Self.store(samples, destination, 1) { value, target in
                let level = Int32((Self.clamped(value) * 128).rounded()) + 128
                target.storeBytes(of: UInt8(min(level, 255)), as: UInt8.self)
            }
        case .signed16:
            Self.store(samples, destination, 2) { value, target in
                let level = Int32((Self.clamped(value) * 32768).rounded())
                target.storeBytes(of: Int16(min(level, 32767)).littleEndian, as: Int16.self)
            }
        case .signed24:
            Self.store(samples, destination, 3) { value, target in
                let level = UInt32(bitPattern: min(Int32((Self.clamped(value) * 8_388_608).rounded()), 8_388_607))
                target.storeBytes(of: UInt8(truncatingIfNeeded: level), as: UInt8.self)
                target.storeBytes(of: UInt8(truncatingIfNeeded: level >> 8), toByteOffset: 1, as: UInt8.self)
                target.storeBytes(of: UInt8(truncatingIfNeeded: level >> 16), toByteOffset: 2, as: UInt8.self)
            }
        case .signed32:
            Self.store(samples, destination, 4) { value, target in
                let level = Int64((Double(Self.clamped(value)) * 2_147_483_648).rounded())
                target.storeBytes(of: Int32(min(level, Int64(Int32.max))).littleEndian, as: Int32.self)
            }
        case .float32:
            Self.store(samples, destination, 4) { value, target in
                target.storeBytes(of: value.bitPattern.littleEndian, as: UInt32.self)
            }
        case .float64:
            Self.store(samples, destination, 8) { value, target in
                target.storeBytes(of: Double(value).bitPattern.littleEndian, as: UInt64.self)
            }
        }
    }

    @inline(__always)
    private static func clamped(_ value: Float) -> Float {
        value.isNaN ? 0 : min(max(value, -1), 1)
    }

    @inline(__always)
    private static func store(
        _ samples: UnsafeBufferPointer<Float>, _ destination: UnsafeMutableRawPointer, _ bytesPerSample: Int,
        _ write: (Float, UnsafeMutableRawPointer) -> Void
    ) {
        for (index, value) in samples.enumerated() {
            write(value, destination + index * bytesPerSample)
        }
    }
}
