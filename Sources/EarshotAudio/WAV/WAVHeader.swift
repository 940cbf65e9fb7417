/// Where the audio sits in a WAV file and how it is encoded, parsed from the RIFF chunks.
struct WAVHeader: Equatable, Sendable {
    var format: WAVFormat
    /// Byte range of whole sample frames in the data chunk; a trailing partial frame is dropped.
    var audioBytes: Range<Int>

    var frameCount: Int { audioBytes.count / format.bytesPerFrame }

    private static let riffHeaderSize = 12
    private static let chunkHeaderSize = 8
    private static let plainFormatSize = 16
    private static let extensibleFormatSize = 40
    /// Bytes 2..<16 of every KSDATAFORMAT_SUBTYPE_* GUID built from a WAVE format tag.
    private static let subFormatGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]

    init(parsing bytes: UnsafeRawBufferPointer, path: String) throws(AudioFileError) {
        func fail(_ problem: AudioFileError.Problem) -> AudioFileError {
            AudioFileError(path: path, problem: problem)
        }
        let count = bytes.count
        guard count > 0 else { throw fail(.empty) }
        let startsLikeRIFF = bytes.matches(String("RIFF".prefix(count)), at: 0)
        if count < Self.riffHeaderSize && startsLikeRIFF {
            throw fail(.truncatedHeader("the file has only \(count) bytes, fewer than the \(Self.riffHeaderSize) of a RIFF/WAVE header"))
        }
        guard bytes.matches("RIFF", at: 0), bytes.matches("WAVE", at: 8) else {
            if let kind = Self.foreignContainer(in: bytes) { throw fail(.notWAV(kind)) }
            throw fail(.notRIFF)
        }

        var formatChunk: Range<Int>?
        var dataChunk: Range<Int>?
        var offset = Self.riffHeaderSize
        while formatChunk == nil || dataChunk == nil {
            let remaining = count - offset
            if remaining <= 0 { break }
            if remaining < Self.chunkHeaderSize {
                throw fail(.truncatedHeader("the file ends \(remaining) bytes into a chunk header at byte \(offset)"))
            }
            let declaredSize = Int(bytes.littleEndianUInt32(at: offset + 4))
            let body = offset + Self.chunkHeaderSize
            let available = count - body
            if bytes.matches("data", at: offset) {
                if declaredSize == 0 || declaredSize == Int(UInt32.max) {
                    // Streaming writers leave the size unset; the audio runs to the end of the file.
                    dataChunk = body..<count
                    break
                }
                guard declaredSize <= available else {
                    throw fail(.truncatedData(present: available, declared: declaredSize))
                }
                dataChunk = body..<body + declaredSize
            } else if bytes.matches("fmt ", at: offset) {
                guard declaredSize <= available else {
                    throw fail(.truncatedHeader("the fmt chunk declares \(declaredSize) bytes but the file ends after \(available)"))
                }
                formatChunk = body..<body + declaredSize
            } else if declaredSize > available {
                let missing = formatChunk == nil ? "fmt" : "data"
                throw fail(.truncated("the '\(bytes.fourCC(at: offset))' chunk at byte \(offset) declares \(declaredSize) bytes but only \(available) remain, and no \(missing) chunk came before it"))
            }
            offset = body + declaredSize + (declaredSize & 1)
        }
        guard let formatChunk else { throw fail(.missingFormatChunk) }
        guard let dataChunk else { throw fail(.missingDataChunk) }

        format = try Self.parseFormat(bytes, chunk: formatChunk, path: path)
        let wholeFrames = dataChunk.count / format.bytesPerFrame
        audioBytes = dataChunk.lowerBound..<dataChunk.lowerBound + wholeFrames * format.bytesPerFrame
    }

    private static func parseFormat(
        _ bytes: UnsafeRawBufferPointer, chunk: Range<Int>, path: String
    ) throws(AudioFileError) -> WAVFormat {
        func fail(_ problem: AudioFileError.Problem) -> AudioFileError {
            AudioFileError(path: path, problem: problem)
        }
        guard chunk.count >= plainFormatSize else {
            throw fail(.formatChunkTooShort(size: chunk.count, required: plainFormatSize))
        }
        let start = chunk.lowerBound
        var tag = WAVFormatTag(rawValue: bytes.littleEndianUInt16(at: start))
        let channels = Int(bytes.littleEndianUInt16(at: start + 2))
        let sampleRate = Int(bytes.littleEndianUInt32(at: start + 4))
        let blockAlign = Int(bytes.littleEndianUInt16(at: start + 12))
        let bitsPerSample = Int(bytes.littleEndianUInt16(at: start + 14))

        if tag == .extensible {
            guard chunk.count >= extensibleFormatSize else {
                throw fail(.formatChunkTooShort(size: chunk.count, required: extensibleFormatSize))
            }
            let guid = start + 24
            guard bytes[guid + 2..<guid + 16].elementsEqual(subFormatGUIDTail) else {
                throw fail(.unsupported("WAVE_FORMAT_EXTENSIBLE with a sub-format GUID that is not a WAVE format tag"))
            }
            tag = WAVFormatTag(rawValue: bytes.littleEndianUInt16(at: guid))
        }

        guard tag == .pcm || tag == .ieeeFloat else { throw fail(.unsupportedEncoding(tag)) }
        guard channels > 0 else { throw fail(.corrupt("the fmt chunk declares 0 channels")) }
        guard channels <= 2 else { throw fail(.unsupportedChannelCount(channels)) }
        guard AudioFileError.plausibleSampleRates.contains(sampleRate) else {
            throw fail(.invalidSampleRate(sampleRate))
        }

        let encoding: WAVSampleEncoding
        if tag == .pcm {
            // Narrower PCM samples (e.g. 12 or 20 bit) are left-justified in a whole-byte container.
            switch bitsPerSample {
            case 1...8: encoding = .unsigned8
            case 9...16: encoding = .signed16
            case 17...24: encoding = .signed24
            case 25...32: encoding = .signed32
            default: throw fail(.unsupportedBitDepth(bits: bitsPerSample, encoding: "PCM"))
            }
        } else {
            switch bitsPerSample {
            case 32: encoding = .float32
            case 64: encoding = .float64
            default: throw fail(.unsupportedBitDepth(bits: bitsPerSample, encoding: "IEEE float"))
            }
        }
        let format = WAVFormat(sampleRate: sampleRate, channels: channels, encoding: encoding)
        guard blockAlign == format.bytesPerFrame else {
            throw fail(.inconsistentBlockAlign(
                declared: blockAlign, expected: format.bytesPerFrame, channels: channels, bitsPerSample: bitsPerSample
            ))
        }
        return format
    }
}

// MARK: - Other containers

extension WAVHeader {
    /// Names the kind of file when it is a known non-WAV audio container, so the message can say what it is.
    static func foreignContainer(in bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.matches("RIFX", at: 0) { return "a big-endian (RIFX) WAV file" }
        if bytes.matches("RF64", at: 0) || bytes.matches("BW64", at: 0) { return "an RF64 (64-bit WAV) file" }
        if bytes.matches("RIFF", at: 0) {
            return bytes.matches("AVI ", at: 8) ? "an AVI video" : "a RIFF file that is not WAVE"
        }
        if bytes.matches("FORM", at: 0) { return "an AIFF file" }
        if bytes.matches("fLaC", at: 0) { return "a FLAC file" }
        if bytes.matches("OggS", at: 0) { return "an Ogg (Vorbis/Opus) file" }
        if bytes.matches("caff", at: 0) { return "a Core Audio (CAF) file" }
        if bytes.matches("ftyp", at: 4) { return "an MP4/M4A file" }
        if bytes.matches("ID3", at: 0) { return "an MP3 file" }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 { return "an MP3/MPEG audio file" }
        if bytes.count >= 4, bytes[0] == 0x1A, bytes[1] == 0x45, bytes[2] == 0xDF, bytes[3] == 0xA3 {
            return "a Matroska/WebM file"
        }
        return nil
    }
}

// MARK: - Reading little-endian fields

extension UnsafeRawBufferPointer {
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Whether the bytes at `offset` spell `ascii`; false if they run past the end.
    func matches(_ ascii: String, at offset: Int) -> Bool {
        let expected = ascii.utf8
        guard offset >= 0, offset + expected.count <= count else { return false }
        return self[offset..<offset + expected.count].elementsEqual(expected)
    }

    /// A chunk identifier for messages, with unprintable bytes escaped.
    func fourCC(at offset: Int) -> String {
        self[offset..<Swift.min(offset + 4, count)].map { byte in
            (0x20...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
        }.joined()
    }
}
