extension WAVFile {
    /// The bytes of a WAV file holding `samples` (interleaved when `channels` > 1) in any readable layout.
    ///
    /// Integer encodings clamp to -1...1. `extensible` writes a `WAVE_FORMAT_EXTENSIBLE` fmt chunk instead of
    /// the plain one. Any channel count is written, although only 1 or 2 can be read back.
    public static func encode(
        samples: [Float], sampleRate: Int, channels: Int = 1, encoding: WAVSampleEncoding = .signed16,
        extensible: Bool = false
    ) -> [UInt8] {
        precondition(channels > 0 && samples.count % channels == 0, "samples must hold whole frames")
        let format = WAVFormat(sampleRate: sampleRate, channels: channels, encoding: encoding)
        var formatBody: [UInt8] = []
        formatBody.appendLittleEndian(UInt16(extensible ? WAVFormatTag.extensible.rawValue : encoding.formatTag.rawValue))
        formatBody.appendLittleEndian(UInt16(channels))
        formatBody.appendLittleEndian(UInt32(sampleRate))
        formatBody.appendLittleEndian(UInt32(sampleRate * format.bytesPerFrame))
        formatBody.appendLittleEndian(UInt16(format.bytesPerFrame))
        formatBody.appendLittleEndian(UInt16(encoding.bitsPerSample))
        if extensible {
            formatBody.appendLittleEndian(UInt16(22))
            formatBody.appendLittleEndian(UInt16(encoding.bitsPerSample))
            formatBody.appendLittleEndian(UInt32(channels == 2 ? 0x3 : channels == 1 ? 0x4 : 0))
            formatBody.appendLittleEndian(encoding.formatTag.rawValue)
            formatBody += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if encoding.isFloat {
            formatBody.appendLittleEndian(UInt16(0))
        }

        let dataSize = samples.count * encoding.bytesPerSample
        let padding = dataSize & 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + formatBody.count + dataSize + padding)
        bytes += Array("RIFF".utf8)
        bytes.appendLittleEndian(UInt32(4 + 8 + formatBody.count + 8 + dataSize + padding))
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8)
        bytes.appendLittleEndian(UInt32(formatBody.count))
        bytes += formatBody
        bytes += Array("data".utf8)
        bytes.appendLittleEndian(UInt32(dataSize))
        let dataStart = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: dataSize + padding))
        samples.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBytes { destination in
                encoding.encode(source, into: destination.baseAddress! + dataStart)
            }
        }
        return bytes
    }
}
