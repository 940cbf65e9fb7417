import Foundation

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
