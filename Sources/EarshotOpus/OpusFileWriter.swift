import COpus
public import EarshotAudio

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes mono audio to an Ogg Opus file as it arrives: open, `append` any number of times, `finish`.
///
/// Dropping a writer without `finish` frees the encoder but leaves the file without its last pages.
public struct OpusFileWriter: ~Copyable {
    public let path: String
    private let encoder: OpaquePointer

    /// Creates (or truncates) the file at `path` for mono audio at `sampleRate`, encoded at `bitrate` bits per second.
    public init(path: String, sampleRate: Int = AudioFrame.sampleRate, bitrate: Int = 32_000) throws(AudioFileError) {
        guard AudioFileError.plausibleSampleRates.contains(sampleRate) else {
            throw AudioFileError(path: path, problem: .invalidSampleRate(sampleRate))
        }
        guard Self.bitrates.contains(bitrate) else {
            throw AudioFileError(path: path, problem: .unsupported(
                "a bitrate of \(bitrate) bit/s; Opus encodes \(Self.bitrates.lowerBound) to \(Self.bitrates.upperBound) bit/s"
            ))
        }
        guard let comments = ope_comments_create() else {
            throw AudioFileError(path: path, problem: .unwritable("out of memory"))
        }
        // The encoder keeps its own copy of the comments.
        defer { ope_comments_destroy(comments) }
        guard ope_comments_add(comments, "ENCODER", "Earshot") == OPE_OK else {
            throw AudioFileError(path: path, problem: .unwritable("out of memory"))
        }
        var code: Int32 = 0
        guard let encoder = ope_encoder_create_file(path, comments, opus_int32(sampleRate), 1, 0, &code) else {
            let why = code == OPE_CANNOT_OPEN ? Self.openFailure(errno) : Self.describe(code)
            throw AudioFileError(path: path, problem: .unwritable(why))
        }
        code = earshot_ope_set_bitrate(encoder, opus_int32(bitrate))
        guard code == OPE_OK else {
            ope_encoder_destroy(encoder)
            throw AudioFileError(path: path, problem: .unsupported("a bitrate of \(bitrate) bit/s: \(Self.describe(code))"))
        }
        self.path = path
        self.encoder = encoder
    }

    deinit {
        ope_encoder_destroy(encoder)
    }

    /// Encodes the next stretch of mono samples (-1...1) at the writer's sample rate.
    public mutating func append(_ samples: some Collection<Float>) throws(AudioFileError) {
        let written = samples.withContiguousStorageIfAvailable { buffer in write(buffer) }
            ?? Array(samples).withUnsafeBufferPointer { buffer in write(buffer) }
        guard written == OPE_OK else {
            throw AudioFileError(path: path, problem: .unwritable(Self.describe(written)))
        }
    }

    /// Encodes what is still buffered, writes the last pages and closes the file.
    public consuming func finish() throws(AudioFileError) {
        let code = ope_encoder_drain(encoder)
        guard code == OPE_OK else {
            throw AudioFileError(path: path, problem: .unwritable(Self.describe(code)))
        }
    }

    private func write(_ buffer: UnsafeBufferPointer<Float>) -> Int32 {
        // In pieces, as libopusenc counts samples in a C int.
        let piece = 1 << 20
        var start = 0
        while start < buffer.count {
            let count = min(piece, buffer.count - start)
            let code = ope_encoder_write_float(encoder, buffer.baseAddress! + start, Int32(count))
            if code != OPE_OK { return code }
            start += count
        }
        return OPE_OK
    }

    /// What `OPUS_SET_BITRATE` accepts.
    private static let bitrates = 500...512_000

    private static func describe(_ code: Int32) -> String {
        switch code {
        case OPE_WRITE_FAIL: "writing failed (is the disk full?)"
        case OPE_CLOSE_FAIL: "closing the file failed (is the disk full?)"
        case OPE_ALLOC_FAIL: "out of memory"
        default: String(cString: ope_strerror(code))
        }
    }

    private static func openFailure(_ code: Int32) -> String {
        switch code {
        case ENOENT: "its directory does not exist"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code))
        }
    }
}
