import Glibc

/// Pipes for the responder, created close-on-exec atomically with `pipe2`: another thread of the
/// daemon starting a process at the same moment must not inherit them (it would hold the
/// command's stdout open). Swift's Glibc module hides `pipe2` (it is a GNU extension), so it is
/// looked up at run time.
enum ResponderPipe {
    /// A pipe's (read, write) ends, or nil with `errno` set.
    static func make(nonBlocking: Bool = false) -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        if let pipe2 {
            guard pipe2(&ends, flags) == 0 else { return nil }
        } else {
            guard pipe(&ends) == 0 else { return nil }
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                if nonBlocking { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            }
        }
        return (ends[0], ends[1])
    }

    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()
}
