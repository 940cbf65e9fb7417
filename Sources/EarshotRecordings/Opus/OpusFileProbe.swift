import COpus
import EarshotAudio

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what libopusfile and the file system say about a file into errors a person can act on.
enum OpusFileProbe {
    /// libopusfile reports a missing file, a directory and an empty file alike, so these are checked first.
    static func checkReadable(_ path: String) throws(AudioFileError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw AudioFileError(path: path, problem: code == ENOENT ? .missingFile : .unreadable(describe(code)))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw AudioFileError(path: path, problem: .unreadable("it is a directory"))
        }
        if info.st_mode & S_IFMT == S_IFREG && info.st_size == 0 {
            throw AudioFileError(path: path, problem: .empty)
        }
    }

    static func openProblem(_ code: Int32, path: String) -> AudioFileError.Problem {
        openProblem(code, leadingBytes: leadingBytes(of: path, count: 36))
    }

    /// `leadingBytes`: the file's first 36 bytes (fewer if it is shorter).
    static func openProblem(_ code: Int32, leadingBytes bytes: [UInt8]) -> AudioFileError.Problem {
        switch code {
        case OP_ENOTFORMAT where startsOpusHeaders(bytes): .truncated("it ends inside its Opus headers")
        case OP_ENOTFORMAT: .unsupported("not an Ogg Opus file (\(kind(of: bytes)))")
        case OP_EBADHEADER: .corrupt("its Opus headers are malformed")
        case OP_EVERSION: .unsupported("an Opus header version this libopusfile cannot read")
        case OP_EIMPL: .unsupported("a channel mapping libopusfile does not implement")
        case OP_EFAULT: .unreadable(describe(errno))
        case OP_EREAD: .unreadable("reading failed")
        default: .corrupt("libopusfile error \(code) while opening")
        }
    }

    static func decodeProblem(_ code: Int32) -> AudioFileError.Problem {
        switch code {
        case OP_EBADPACKET: .corrupt("an Opus packet could not be decoded")
        case OP_EBADLINK: .corrupt("a link of the Ogg stream could not be found")
        case OP_EBADTIMESTAMP: .corrupt("an Ogg page has an impossible timestamp")
        case OP_EREAD: .unreadable("reading failed")
        case OP_EFAULT: .unreadable("out of memory")
        default: .corrupt("libopusfile error \(code) while decoding")
        }
    }

    /// What the file's first bytes suggest it is instead, for the "not Ogg Opus" message.
    static func kind(of leadingBytes: [UInt8]) -> String {
        let magic = Array(leadingBytes.prefix(4))
        if magic == Array("RIFF".utf8) { return "it looks like a WAV file" }
        if magic == Array("fLaC".utf8) { return "it looks like a FLAC file" }
        if magic == Array("OggS".utf8) { return "an Ogg file without an Opus stream, e.g. Vorbis or FLAC" }
        return "no Ogg page holding an Opus header was found"
    }

    /// An Ogg page whose packet begins "OpusHead" (at byte 28 for a one-segment first page).
    private static func startsOpusHeaders(_ bytes: [UInt8]) -> Bool {
        return bytes.count == 36 && bytes.prefix(4).elementsEqual("OggS".utf8) && bytes.suffix(8).elementsEqual("OpusHead".utf8)
    }

    private static func leadingBytes(of path: String, count: Int) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress!, count) }
        return Array(bytes.prefix(max(got, 0)))
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code))
        }
    }
}
