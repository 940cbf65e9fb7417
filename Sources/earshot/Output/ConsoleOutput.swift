import Foundation

/// Unbuffered writes of whole lines to stdout and stderr, so a line reaches a pipe the moment it
/// is printed.
enum ConsoleOutput {
    /// Writes `text` and a newline to stdout; `false` once the reader has gone away.
    @discardableResult
    static func line(_ text: String) -> Bool {
        write(Array((text + "\n").utf8), to: STDOUT_FILENO)
    }

    /// Writes `text` (one or more lines) and a newline to stderr.
    static func error(_ text: String) {
        write(Array((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes all of `bytes` to `descriptor`; `false` if it cannot take them (e.g. a closed pipe).
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// Unbuffered writes of whole chunks to standard output.
struct StandardOutput: Sendable {
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // The reader went away (e.g. `| head`); nothing sensible is left to do.
                }
                offset += written
            }
        }
    }
}
