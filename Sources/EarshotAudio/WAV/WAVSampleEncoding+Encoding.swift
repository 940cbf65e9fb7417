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
