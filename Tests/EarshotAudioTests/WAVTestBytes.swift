/// Hand-built RIFF files for header and error tests.
enum WAVTestBytes {
    static func littleEndian(_ value: some FixedWidthInteger) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    static func chunk(_ id: String, _ body: [UInt8], declaredSize: UInt32? = nil) -> [UInt8] {
        Array(id.utf8) + littleEndian(declaredSize ?? UInt32(body.count)) + body + (body.count.isMultiple(of: 2) ? [] : [0])
    }

    static func riff(_ chunks: [UInt8]...) -> [UInt8] {
        let body = chunks.flatMap { $0 }
        return Array("RIFF".utf8) + littleEndian(UInt32(4 + body.count)) + Array("WAVE".utf8) + body
    }

    static func formatBody(tag: UInt16 = 1, channels: UInt16 = 1, sampleRate: UInt32 = 16_000, blockAlign: UInt16? = nil, bits: UInt16 = 16) -> [UInt8] {
        let align = blockAlign ?? channels * ((bits + 7) / 8)
        return littleEndian(tag) + littleEndian(channels) + littleEndian(sampleRate)
            + littleEndian(sampleRate &* UInt32(align)) + littleEndian(align) + littleEndian(bits)
    }

    static func formatChunk(tag: UInt16 = 1, channels: UInt16 = 1, sampleRate: UInt32 = 16_000, blockAlign: UInt16? = nil, bits: UInt16 = 16) -> [UInt8] {
        chunk("fmt ", formatBody(tag: tag, channels: channels, sampleRate: sampleRate, blockAlign: blockAlign, bits: bits))
    }

    /// 16-bit little-endian PCM bytes of the given integer sample values.
    static func pcm16(_ values: [Int16]) -> [UInt8] {
        values.flatMap { littleEndian($0) }
    }
}
