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
