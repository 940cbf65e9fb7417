import EarshotTestSupport
import Foundation

/// A private headless PulseAudio, the real `earshotd` on it, and one client subscribed to
/// `topics`. Everything it started ends when it is dropped (or, on a signal, by `ChildGuard`).
final class SpeechSession {
    let sound: PulseTestServer
    let daemon: ChildProcess
    let client: LineSocket
    /// Events read while waiting for responses and states, in order.
    private(set) var events: [[String: Any]] = []

    init(daemonArguments: [String], topics: [String]) throws {
        let daemonBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("earshotd").path
        guard FileManager.default.isExecutableFile(atPath: daemonBinary) else {
            throw LiveBench.Failure(description: "earshotd is not built next to earshot-bench (\(daemonBinary))")
        }
        let sound = try PulseTestServer()
        ChildGuard.register(sound.pid)
        let socketPath = sound.directory + "/earshot.sock"
        let daemon: ChildProcess
        do {
            daemon = try ChildProcess(
                daemonBinary, ["--socket", socketPath, "--listen"] + daemonArguments,
                environment: sound.environment, outputPath: sound.directory + "/earshotd.log"
            )
        } catch {
            Self.end(sound: sound, daemon: nil)
            throw error
        }
        ChildGuard.register(daemon.pid)
        do {
            client = try LiveBench.waitForSocket(socketPath, timeout: 30)
            let quoted = topics.map { "\"\($0)\"" }.joined(separator: ",")
            var early: [[String: Any]] = []
            let response = try client.request(#"{"id":"sub","cmd":"subscribe","topics":[\#(quoted)]}"#, events: &early)
            guard response["ok"] as? Bool == true else {
                throw LiveBench.Failure(description: "subscribe failed: \(response)")
            }
        } catch {
            Self.end(sound: sound, daemon: daemon)
            throw error
        }
        self.sound = sound
        self.daemon = daemon
    }

    deinit { Self.end(sound: sound, daemon: daemon) }

    private static func end(sound: PulseTestServer, daemon: ChildProcess?) {
        if let daemon {
            _ = daemon.terminate()
            ChildGuard.unregister(daemon.pid)
        }
        let pid = sound.pid
        sound.stop()
        ChildGuard.unregister(pid)
    }

    /// Sends a request; returns its response.
    @discardableResult
    func request(_ line: String) throws -> [String: Any] {
        try client.request(line, events: &events)
    }

    /// Reads events until one satisfies `stop`; returns it, or nil after `timeout`.
    @discardableResult
    func wait(timeout: TimeInterval, for stop: ([String: Any]) -> Bool) -> [String: Any]? {
        let read = client.events(timeout: timeout, until: stop)
        events += read
        return read.last.flatMap { stop($0) ? $0 : nil }
    }

    /// Waits for the turn to reach `state`.
    @discardableResult
    func wait(timeout: TimeInterval, forState state: String) -> [String: Any]? {
        wait(timeout: timeout) { $0["event"] as? String == "state" && $0["state"] as? String == state }
    }

    /// Forgets the events read so far.
    func clearEvents() {
        events.removeAll()
    }

    /// The daemon's log, for failure messages.
    var logTail: String {
        let log = (try? String(contentsOfFile: sound.directory + "/earshotd.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(15).joined(separator: "\n")
    }
}
