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
