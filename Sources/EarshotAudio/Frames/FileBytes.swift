#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes through POSIX calls, so failures can be reported precisely (missing, permission, directory).
enum FileBytes {
    static func read(_ path: String) throws(AudioFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw AudioFileError(path: path, problem: code == ENOENT ? .missingFile : .unreadable(reason(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw AudioFileError(path: path, problem: .unreadable(reason(errno)))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw AudioFileError(path: path, problem: .unreadable("it is a directory"))
        }
        // Pipes and devices report size 0, so keep reading until end of file whatever the size said.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 65_536)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if got == 0 { break }
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                throw AudioFileError(path: path, problem: .unreadable(reason(code)))
            }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) throws(AudioFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            let why = code == ENOENT ? "its directory does not exist" : reason(code)
            throw AudioFileError(path: path, problem: .unwritable(why))
        }
        var written = 0
        while written < bytes.count {
            let put = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if put < 0 {
                let code = errno
                if code == EINTR { continue }
                close(descriptor)
                throw AudioFileError(path: path, problem: .unwritable(reason(code)))
            }
            written += put
        }
        guard close(descriptor) == 0 else {
            throw AudioFileError(path: path, problem: .unwritable(reason(errno)))
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code))
        }
    }
}

// At file scope these names resolve to the C library, not to FileBytes' own read and write.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
