import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// A subscribed client's socket, held by a descriptor of the server's own, so the thread that
/// publishes an event can hand it to the kernel without waking the connection's event loop.
///
/// NIO keeps an accepted socket's descriptor to itself; the socket is found again by its
/// kernel cookie (`SO_COOKIE`, the same for every descriptor of one socket) among the process's
/// descriptors and duplicated. The duplicate is closed exactly once, when this owner goes.
final class SubscriberSocket: Sendable {
    /// How much of a line the socket took.
    enum SendResult: Equatable {
        case sent(Int)
        /// The client is gone (the event loop learns it from its own read and closes).
        case failed
    }

    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Reads the kernel cookie of `channel`'s socket and calls `body` with the socket found by
    /// it, or `nil` where it cannot be found (not Linux, a descriptor limit): the server then
    /// writes everything through the event loop. Runs on the channel's event loop.
    static func find(for channel: any Channel, _ body: @escaping (SubscriberSocket?) -> Void) {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider else { return body(nil) }
        let cookie: EventLoopFuture<UInt64> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_COOKIE)
        )
        cookie.assumeIsolated().whenComplete { result in
            body((try? result.get()).flatMap(duplicate(cookie:)))
        }
        #else
        body(nil)
        #endif
    }

    /// Writes as much of `line` as the socket takes now, never waiting.
    func send(_ line: ByteBuffer) -> SendResult {
        line.withUnsafeReadableBytes { bytes in
            while true {
                let sent = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                if sent >= 0 { return .sent(sent) }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .sent(0)
                default: return .failed
                }
            }
        }
    }

    #if os(Linux)
    private static func duplicate(cookie: UInt64) -> SubscriberSocket? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let candidate = Int32(name), Self.cookie(of: candidate) == cookie else { continue }
            let copy = fcntl(candidate, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return nil }
            // The number could have been closed and reused between the look and the copy.
            guard Self.cookie(of: copy) == cookie else {
                close(copy)
                return nil
            }
            return SubscriberSocket(descriptor: copy)
        }
        return nil
    }

    private static func cookie(of descriptor: Int32) -> UInt64? {
        var value: UInt64 = 0
        var length = socklen_t(MemoryLayout<UInt64>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_COOKIE, &value, &length) == 0 else { return nil }
        return value
    }
    #endif
}
