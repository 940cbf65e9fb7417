import EarshotBase
import EarshotProtocol
import Foundation

/// A stand-in for the daemon on a real Unix socket: it accepts one client and plays a script
/// (answer the next request, push lines, pause, hang up), recording every line the client sent.
/// The real daemon's end-to-end tests live with the daemon.
final class ScriptedDaemonPeer: Sendable {
    let path: String
    private let listener: Int32
    private let receivedLines = Locked<[String]>([])
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on a fresh socket path and plays `script` to the first client that connects.
    init(_ script: [Step]) throws {
        path = Self.freshPath()
        listener = try Self.listeningSocket(at: path)
        let peer = self
        Thread { peer.serve(script) }.start()
    }

    /// The lines the client sent, once it has hung up (or after `timeout`).
    func linesReceived(timeout: Duration = .seconds(5)) -> [String] {
        _ = finished.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000)))
        return receivedLines.withLock { $0 }
    }

    /// A path under /tmp short enough for a Unix socket address, unique to one test.
    static func freshPath() -> String {
        "/tmp/earshot-client-test-\(UUID().uuidString.prefix(8)).sock"
    }

    /// Leaves a socket file that nobody listens on, as a daemon that crashed would.
    static func staleSocketFile() throws -> String {
        let path = freshPath()
        let descriptor = try boundSocket(at: path)
        close(descriptor)
        return path
    }

    private func serve(_ script: [Step]) {
        defer {
            close(listener)
            unlink(path)
            finished.signal()
        }
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 10_000) == 1 else { return }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        var reader = LineReader(descriptor: client)
        for step in script {
            switch step {
            case .answer(let reply):
                guard let line = reader.nextLine() else { return }
                record(line)
                Self.write(reply(Request(line: line)).map { $0 + "\n" }.joined(), to: client)
            case .push(let lines):
                Self.write(lines.map { $0 + "\n" }.joined(), to: client)
            case .pushBytes(let text):
                Self.write(text, to: client)
            case .pause(let duration):
                Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            case .hangUp:
                return
            }
        }
        // The script is over: stay on the line until the client hangs up.
        while let line = reader.nextLine() { record(line) }
    }

    private func record(_ line: String) {
        receivedLines.withLock { $0.append(line) }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = try boundSocket(at: path)
        guard listen(descriptor, 4) == 0 else { throw SetupError(action: "listen on \(path)", code: errno) }
        return descriptor
    }

    private static func boundSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SetupError(action: "create a socket", code: errno) }
        guard try UnixSocketAddress(path: path).bind(descriptor) == 0 else { throw SetupError(action: "bind \(path)", code: errno) }
        return descriptor
    }
}

extension ScriptedDaemonPeer {
    /// One thing the scripted daemon does, in order.
    enum Step: Sendable {
        /// Reads the client's next line and sends back the lines made from it.
        case answer(@Sendable (Request) -> [String])
        /// Sends lines unasked (events, stray responses).
        case push([String])
        /// Sends raw text, e.g. half a line.
        case pushBytes(String)
        case pause(Duration)
        /// Closes the connection, as a daemon that stops does.
        case hangUp

        /// Answers the next request `{"id":…,"ok":true,<fields>}`.
        static func succeed(_ fields: String = "") -> Step {
            .answer { [$0.success(fields)] }
        }

        /// Answers the next request with a failure.
        static func fail(code: String, message: String) -> Step {
            .answer { [$0.failure(code: code, message: message)] }
        }
    }
}

extension ScriptedDaemonPeer {
    /// A request line as the scripted daemon received it.
    struct Request: Sendable {
        let line: String

        var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }

        /// The `id` as JSON text, echoed as the daemon would; `null` when absent.
        var idText: String {
            guard let id = object["id"] else { return "null" }
            if let number = id as? Int { return String(number) }
            return String(decoding: (try? JSONSerialization.data(withJSONObject: id, options: .fragmentsAllowed)) ?? Data("null".utf8), as: UTF8.self)
        }

        var command: String? { object["cmd"] as? String }

        func success(_ fields: String = "") -> String {
            #"{"id":\#(idText),"ok":true"# + (fields.isEmpty ? "" : "," + fields) + "}"
        }

        func failure(code: String, message: String) -> String {
            #"{"id":\#(idText),"ok":false,"error":{"code":"\#(code)","message":"\#(message)"}}"#
        }
    }
}

extension ScriptedDaemonPeer {
    /// Reads `\n`-terminated lines from the scripted daemon's end of the socket.
    struct LineReader {
        let descriptor: Int32
        private var lines = LineSplitter(maximumLength: .max)

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// The next line, or `nil` once the client has hung up.
        mutating func nextLine() -> String? {
            while true {
                if case .line(let line)? = lines.next() { return String(decoding: line, as: UTF8.self) }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return nil }
                lines.append(chunk[..<count])
            }
        }
    }
}

extension ScriptedDaemonPeer {
    /// The scripted daemon could not set up its socket.
    struct SetupError: Error, CustomStringConvertible {
        var action: String
        var code: Int32

        var description: String { "could not \(action): \(String(cString: strerror(code)))" }
    }
}
