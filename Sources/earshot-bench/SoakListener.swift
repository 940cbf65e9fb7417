import EarshotBase
import EarshotHarness
import Foundation

/// The soak's front end: a client subscribed to every topic (levels at 60 Hz) that reads all the
/// daemon sends, on a thread of its own, and keeps count of the conversation.
final class SoakListener: Sendable {
    struct Tally: Sendable {
        var subscribed = false
        var lines = 0
        var levels = 0
        var turns = 0
        var finalTranscripts = 0
        var repliesStarted = 0
        var repliesCut = 0
        var errors: [String: Int] = [:]
        var state = "?"
        var stateSince = Date()
        /// Lines that were not JSON objects: the daemon must never send one.
        var malformed = 0
    }

    let tally = Locked(Tally())
    private let stopping = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    init(socketPath: String) throws {
        let client = try LineSocket(path: socketPath)
        try client.send(#"{"id":"soak","cmd":"subscribe","level_hz":60}"#)
        // The state before the first change the subscription brings.
        try client.send(#"{"id":"soak-state","cmd":"status"}"#)
        let box = Box(client)
        Thread { [tally, stopping, finished] in
            Self.read(box.value, into: tally, until: stopping)
            finished.signal()
        }.start()
        let deadline = Date().addingTimeInterval(10)
        while !tally.withLock({ $0.subscribed }) {
            guard Date() < deadline else { throw LiveBench.Failure(description: "the soak's client was never subscribed") }
            usleep(10_000)
        }
    }

    /// Stops reading and waits for the reading thread to end.
    func stop() {
        stopping.withLock { $0 = true }
        finished.wait()
    }

    /// Whether the voice UI has been `listening` for `seconds` at least: no turn open, no reply
    /// being made or played, so no responder or transient connection holds a descriptor.
    func isQuiet(for seconds: Double) -> Bool {
        tally.withLock { $0.state == "listening" && Date().timeIntervalSince($0.stateSince) >= seconds }
    }

    private static func read(_ client: LineSocket, into tally: Locked<Tally>, until stopping: Locked<Bool>) {
        while !stopping.withLock({ $0 }) {
            guard let line = client.readLine(timeout: 0.5) else { continue }
            // Levels are most of the traffic: counted without parsing.
            if line.hasPrefix(#"{"event":"level""#) {
                tally.withLock {
                    $0.lines += 1
                    $0.levels += 1
                }
                continue
            }
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            tally.withLock { tally in
                tally.lines += 1
                guard let object else {
                    tally.malformed += 1
                    return
                }
                if object["id"] as? String == "soak" { tally.subscribed = object["ok"] as? Bool == true }
                if object["id"] as? String == "soak-state", let state = object["state"] as? [String: Any] {
                    tally.state = state["state"] as? String ?? "?"
                }
                switch object["event"] as? String {
                case "state":
                    tally.state = object["state"] as? String ?? "?"
                    tally.stateSince = Date()
                    tally.turns = max(tally.turns, object["turn"] as? Int ?? 0)
                case "transcript":
                    if object["final"] as? Bool == true { tally.finalTranscripts += 1 }
                case "speaker":
                    switch object["phase"] as? String {
                    case "start": tally.repliesStarted += 1
                    case "stop": tally.repliesCut += 1
                    default: break
                    }
                case "error":
                    tally.errors[object["code"] as? String ?? "?", default: 0] += 1
                default:
                    break
                }
            }
        }
    }
}

/// Hands a value to the one thread that uses it from then on.
private final class Box<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
