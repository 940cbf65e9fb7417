import EarshotBase
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Synchronization

/// A fake Wyoming server on a loopback port, for the failures the real ones will not produce on
/// demand: it answers each event it receives as its script says (or never), and records what
/// arrived and when. Each connection is served on a thread of its own with blocking sockets.
final class FakeWyomingServer: Sendable {
    /// What to do after receiving an event.
    enum Reply: Sendable {
        case nothing
        case events([WyomingEvent])
        /// Writes the events one by one, `interval` apart, stopping when the client goes away.
        case paced([WyomingEvent], interval: Duration)
        /// Bytes that need not be Wyoming at all.
        case raw([UInt8])
        case close
    }

    struct Arrival: Sendable {
        var event: WyomingEvent
        var at: ContinuousClock.Instant
        var connection: Int
    }

    let port: Int
    var endpoint: WyomingEndpoint { .tcp(host: "127.0.0.1", port: port) }

    private let listener: Int32
    private let script: @Sendable (WyomingEvent) -> Reply
    private let stopped = Atomic<Bool>(false)
    private let arrivals = Locked<[Arrival]>([])
    private let disconnections = Locked<[Int: ContinuousClock.Instant]>([:])
    private let connectionCount = Atomic<Int>(0)

    init(script: @escaping @Sendable (WyomingEvent) -> Reply) throws {
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = SocketProbe.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SocketProbe.Failure(description: "the fake server cannot listen: \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    /// Accepts connections and reads what they send, but never answers.
    static func stalling() throws -> FakeWyomingServer {
        try FakeWyomingServer { _ in .nothing }
    }

    /// Answers `describe` with `info`; answers `audio-stop` (or `synthesize`) with `answer`.
    static func answering(info: WyomingInfo, answer: [WyomingEvent]) throws -> FakeWyomingServer {
        try FakeWyomingServer { event in
            switch event.type {
            case WyomingDescribe.eventType: .events([info.event])
            case WyomingAudioStop.eventType, WyomingSynthesize.eventType: .events(answer)
            default: .nothing
            }
        }
    }

    deinit { stop() }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    var received: [Arrival] { arrivals.withLock { $0 } }

    /// When the client closed connection number `connection` (counted from 0), if it has.
    func disconnection(of connection: Int) -> ContinuousClock.Instant? {
        disconnections.withLock { $0[connection] }
    }

    /// Polls until `condition` holds or `timeout` passes; says whether it held.
    func waitUntil(timeout: Duration = .seconds(5), _ condition: (FakeWyomingServer) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition(self)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let number = connectionCount.add(1, ordering: .relaxed).oldValue
            Thread { [self] in serve(client, number: number) }.start()
        }
    }

    private func serve(_ client: Int32, number: Int) {
        defer {
            close(client)
            disconnections.withLock { $0[number] = $0[number] ?? .now }
        }
        var decoder = WyomingFrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopped.load(ordering: .acquiring) {
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            decoder.append(buffer[..<count])
            while let event = try? decoder.next() {
                arrivals.withLock { $0.append(Arrival(event: event, at: .now, connection: number)) }
                guard perform(script(event), on: client) else { return }
            }
        }
    }

    /// Whether the connection is still open afterwards.
    private func perform(_ reply: Reply, on client: Int32) -> Bool {
        switch reply {
        case .nothing:
            return true
        case .events(let events):
            return write(events.flatMap { $0.encoded() }, to: client)
        case .paced(let events, let interval):
            for event in events {
                guard write(event.encoded(), to: client) else { return false }
                usleep(UInt32(interval / .microseconds(1)))
            }
            return true
        case .raw(let bytes):
            return write(bytes, to: client)
        case .close:
            return false
        }
    }

    private func write(_ bytes: [UInt8], to client: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// A loopback listener that never accepts, with its backlog filled by connections of its own, so
/// the kernel drops further connection attempts and a client's connect hangs: how a server that
/// is wedged (or a firewall that drops packets) looks from outside.
final class FullBacklogListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = SocketProbe.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 0) == 0 else {
            close(listener)
            throw SocketProbe.Failure(description: "cannot listen: \(String(cString: strerror(errno)))")
        }
        descriptors.append(listener)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            var target = SocketProbe.loopback(port: port)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            descriptors.append(filler)
        }
        usleep(50_000)
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }
}
