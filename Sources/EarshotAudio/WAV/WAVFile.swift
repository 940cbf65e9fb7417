/// Reads and writes RIFF WAV files. Anything read comes back as 16 kHz mono.
///
/// Readable: PCM from 1 to 32 bits (8-bit unsigned, 16/24/32-bit signed, narrower depths in whole-byte
/// containers), 32- and 64-bit IEEE float, plain or `WAVE_FORMAT_EXTENSIBLE`, mono or stereo (averaged to
/// mono), any sample rate from 1 to 768 kHz (band-limited conversion to 16 kHz, see `Resampler`).
public enum WAVFile {
    /// Decodes the WAV file at `path` to a 16 kHz mono clip.
    public static func read(_ path: String) throws(AudioFileError) -> AudioClip {
        let bytes = try FileBytes.read(path)
        return try decode(bytes, path: path)
    }

    /// Decodes a WAV file held in memory to a 16 kHz mono clip; `path` only names it in errors.
    public static func decode(_ bytes: some Collection<UInt8>, path: String) throws(AudioFileError) -> AudioClip {
        try withRawBytes(bytes) { buffer throws(AudioFileError) in try decode(buffer, path: path) }
    }

    /// Reads only the header of a WAV file held in memory: how its audio is stored and how many sample frames it has.
    public static func format(of bytes: some Collection<UInt8>, path: String) throws(AudioFileError) -> (format: WAVFormat, frameCount: Int) {
        let header = try withRawBytes(bytes) { buffer throws(AudioFileError) in
            try WAVHeader(parsing: buffer, path: path)
        }
        return (header.format, header.frameCount)
    }

    /// Decodes to mono at the file's own sample rate, without resampling.
    public static func decodeMono(_ bytes: some Collection<UInt8>, path: String) throws(AudioFileError) -> (samples: [Float], sampleRate: Int) {
        try withRawBytes(bytes) { buffer throws(AudioFileError) in
            let header = try WAVHeader(parsing: buffer, path: path)
            return (monoSamples(buffer, header), header.format.sampleRate)
        }
    }

    /// Writes `clip` as 16-bit PCM, 16 kHz, mono; samples outside -1...1 are clamped.
    public static func write(_ clip: AudioClip, to path: String) throws(AudioFileError) {
        try FileBytes.write(encode(clip), to: path)
    }

    /// Writes already encoded WAV bytes (e.g. from `encode(samples:sampleRate:channels:encoding:extensible:)`).
    public static func write(bytes: [UInt8], to path: String) throws(AudioFileError) {
        try FileBytes.write(bytes, to: path)
    }

    /// The bytes of `clip` as a 16-bit PCM, 16 kHz, mono WAV file.
    public static func encode(_ clip: AudioClip) -> [UInt8] {
        encode(samples: clip.samples, sampleRate: AudioFrame.sampleRate)
    }

    private static func decode(_ buffer: UnsafeRawBufferPointer, path: String) throws(AudioFileError) -> AudioClip {
        let header = try WAVHeader(parsing: buffer, path: path)
        let samples = monoSamples(buffer, header)
        return AudioClip(samples: Resampler.resample(samples, from: header.format.sampleRate, to: AudioFrame.sampleRate))
    }

    /// Runs `body` on the bytes in place when they are contiguous, else on a contiguous copy.
    private static func withRawBytes<Result>(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws(AudioFileError) -> Result
    ) throws(AudioFileError) -> Result {
        let inPlace = bytes.withContiguousStorageIfAvailable { buffer in
            Swift.Result { () throws(AudioFileError) in try body(UnsafeRawBufferPointer(buffer)) }
        }
        if let inPlace { return try inPlace.get() }
        let copy = Array(bytes)
        let copied = copy.withUnsafeBytes { buffer in
            Swift.Result { () throws(AudioFileError) in try body(buffer) }
        }
        return try copied.get()
    }

    private static func monoSamples(_ buffer: UnsafeRawBufferPointer, _ header: WAVHeader) -> [Float] {
        let frames = header.frameCount
        return [Float](unsafeUninitializedCapacity: frames) { destination, initialized in
            if frames > 0 {
                header.format.encoding.decodeMono(
                    from: buffer.baseAddress! + header.audioBytes.lowerBound,
                    frames: frames, channels: header.format.channels, into: destination.baseAddress!
                )
            }
            initialized = frames
        }
    }
}

// MARK: - Encoding

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

extension WAVFile {
    /// The bytes of a 16-bit PCM mono WAV file holding `samples` as they are (no conversion).
    public static func encode(signed16 samples: [Int16], sampleRate: Int) -> [UInt8] {
        let dataSize = samples.count * 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataSize)
        bytes += Array("RIFF".utf8)
        bytes.appendLittleEndian(UInt32(36 + dataSize))
        bytes += Array("WAVEfmt ".utf8)
        bytes.appendLittleEndian(UInt32(16))
        bytes.appendLittleEndian(WAVFormatTag.pcm.rawValue)
        bytes.appendLittleEndian(UInt16(1))
        bytes.appendLittleEndian(UInt32(sampleRate))
        bytes.appendLittleEndian(UInt32(sampleRate * 2))
        bytes.appendLittleEndian(UInt16(2))
        bytes.appendLittleEndian(UInt16(16))
        bytes += Array("data".utf8)
        bytes.appendLittleEndian(UInt32(dataSize))
        for sample in samples { bytes.appendLittleEndian(UInt16(bitPattern: sample)) }
        return bytes
    }
}

// MARK: - Writing little-endian fields

extension [UInt8] {
    mutating func appendLittleEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
