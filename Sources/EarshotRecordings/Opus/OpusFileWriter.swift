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
    /// The file the encoder writes through (our callbacks, not libopusenc's stdio ones: when
    /// closing fails, as on a full disk, libopusenc 0.2 closes the stream again on destroy, and
    /// stdio's second fclose crashed the daemon).
    private let output: Unmanaged<OpusOutputFile>

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
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AudioFileError(path: path, problem: .unwritable(Self.openFailure(errno))) }
        let output = Unmanaged.passRetained(OpusOutputFile(descriptor: descriptor))
        var callbacks = OpusEncCallbacks(write: OpusOutputFile.write, close: OpusOutputFile.close)
        var code: Int32 = 0
        guard let encoder = ope_encoder_create_callbacks(&callbacks, output.toOpaque(), comments, opus_int32(sampleRate), 1, 0, &code) else {
            _ = OpusOutputFile.close(output.toOpaque())
            output.release()
            throw AudioFileError(path: path, problem: .unwritable(Self.describe(code, errno: nil)))
        }
        code = earshot_ope_set_bitrate(encoder, opus_int32(bitrate))
        guard code == OPE_OK else {
            ope_encoder_destroy(encoder)
            output.release()
            throw AudioFileError(path: path, problem: .unsupported("a bitrate of \(bitrate) bit/s: \(Self.describe(code, errno: nil))"))
        }
        self.path = path
        self.encoder = encoder
        self.output = output
    }

    deinit {
        ope_encoder_destroy(encoder)
        output.release()
    }

    /// Encodes the next stretch of mono samples (-1...1) at the writer's sample rate.
    public mutating func append(_ samples: some Collection<Float>) throws(AudioFileError) {
        let written = samples.withContiguousStorageIfAvailable { buffer in write(buffer) }
            ?? Array(samples).withUnsafeBufferPointer { buffer in write(buffer) }
        guard written == OPE_OK else {
            throw AudioFileError(path: path, problem: .unwritable(Self.describe(written, errno: output.takeUnretainedValue().failure)))
        }
    }

    /// Encodes what is still buffered, writes the last pages and closes the file.
    public consuming func finish() throws(AudioFileError) {
        let code = ope_encoder_drain(encoder)
        guard code == OPE_OK else {
            throw AudioFileError(path: path, problem: .unwritable(Self.describe(code, errno: output.takeUnretainedValue().failure)))
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

    /// `errno`: why the file's last write or close failed, when it did.
    private static func describe(_ code: Int32, errno: Int32?) -> String {
        if let errno, code == OPE_WRITE_FAIL || code == OPE_CLOSE_FAIL {
            return "writing failed: \(String(cString: strerror(errno)))"
        }
        return switch code {
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

/// The file an encoder writes to, through libopusenc's callbacks: every byte written (a short
/// write continued), closed exactly once however often libopusenc asks, and the first failure's
/// errno kept for the message.
final class OpusOutputFile {
    private var descriptor: Int32
    private(set) var failure: Int32?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    static let write: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, opus_int32) -> Int32 = { context, bytes, count in
        guard let context, let bytes else { return 1 }
        let file = Unmanaged<OpusOutputFile>.fromOpaque(context).takeUnretainedValue()
        guard file.descriptor >= 0, file.failure == nil else { return 1 }
        var offset = 0
        while offset < Int(count) {
            let written = Glibc.write(file.descriptor, bytes + offset, Int(count) - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                file.failure = written < 0 ? errno : ENOSPC
                return 1
            }
            offset += written
        }
        return 0
    }

    static let close: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 1 }
        let file = Unmanaged<OpusOutputFile>.fromOpaque(context).takeUnretainedValue()
        guard file.descriptor >= 0 else { return file.failure == nil ? 0 : 1 }
        let closed = Glibc.close(file.descriptor)
        file.descriptor = -1
        if closed != 0, file.failure == nil { file.failure = errno }
        return file.failure == nil ? 0 : 1
    }
}
