#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file whole (the configuration, a voice, a conversation script, `/proc/self/smaps`).
///
/// Through POSIX calls, not FileManager or `String(contentsOfFile:)`: swift-foundation leaks a
/// 4 KiB buffer on every read of an empty file (LeakSanitizer found it under `make sanitize`),
/// and an empty configuration file is read again on every SIGHUP. Files in `/proc` report no size
/// and are read to their end all the same.
public enum TextFile {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case missing
        case directory
        case tooLarge(bytes: Int, maximum: Int)
        case notUTF8
        case unreadable(errno: Int32)

        public var description: String {
            switch self {
            case .missing: "there is no such file"
            case .directory: "it is a directory, not a file"
            case .tooLarge(let bytes, let maximum): "it is \(bytes / 1024) KiB, larger than the \(maximum / 1024) KiB allowed"
            case .notUTF8: "it is not UTF-8 text"
            case .unreadable(let code): String(cString: strerror(code)).lowercased()
            }
        }
    }

    /// The text of the file at `path`, refused before reading when it is over `maximumBytes`.
    public static func read(_ path: String, maximumBytes: Int) throws(ReadError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT ? .missing : code == EISDIR ? .directory : .unreadable(errno: code)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(errno: errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw .directory }
        guard Int(info.st_size) <= maximumBytes else { throw .tooLarge(bytes: Int(info.st_size), maximum: maximumBytes) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count <= maximumBytes {
            let got = chunk.withUnsafeMutableBytes { readSome(descriptor, $0.baseAddress!, $0.count) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(errno: errno)
            }
            bytes.append(contentsOf: chunk[..<got])
        }
        // A file that grew while it was read (or a device that reports no size) is still capped.
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count, maximum: maximumBytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return text
    }
}

/// POSIX `read`, which `TextFile.read` hides by its name.
private func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
