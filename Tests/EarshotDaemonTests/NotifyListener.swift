import EarshotProtocol
import Foundation

/// What systemd would read: a Unix datagram socket (`NOTIFY_SOCKET`) where a service's sd_notify
/// messages arrive, each kept with the time it came.
final class NotifyListener {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Message: CustomStringConvertible {
        /// The message's assignments, e.g. ["READY": "1", "STATUS": "listening on mic"].
        var fields: [String: String]
        var arrived: ContinuousClock.Instant
        var description: String { fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
    }

    let path: String
    private let descriptor: Int32
    private(set) var messages: [Message] = []

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        guard (try? UnixSocketAddress(path: path))?.bind(descriptor) == 0 else {
            close(descriptor)
            throw Failure(description: "bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Reads messages until one satisfies `predicate` (returned) or `timeout` passes (nil).
    @discardableResult
    func wait(timeout: Duration, for predicate: (Message) -> Bool) -> Message? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, let message = receive(within: remaining) else { return nil }
            if predicate(message) { return message }
        }
    }

    /// Reads every message that arrives within `duration`.
    func collect(for duration: Duration) {
        let deadline = ContinuousClock.now + duration
        while case let remaining = deadline - ContinuousClock.now, remaining > .zero, receive(within: remaining) != nil {}
    }

    /// The messages received so far that have `key` (set to `value`, when given).
    func messages(with key: String, value: String? = nil) -> [Message] {
        messages.filter { message in message.fields[key].map { value == nil || $0 == value } ?? false }
    }

    private func receive(within timeout: Duration) -> Message? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout / .milliseconds(1)) + 1
        guard poll(&poller, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let message = Message(fields: fields, arrived: .now)
        messages.append(message)
        return message
    }
}
