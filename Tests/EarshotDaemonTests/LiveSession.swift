import EarshotTestSupport
import Foundation

/// A private sound server, the real daemon on it, and a subscribed client: one live session.
final class LiveSession {
    let sound: any TestSoundServer
    let daemon: DaemonProcess
    let directory: String

    /// Without `soundServerUp`, the server is killed before the daemon starts, so the daemon
    /// starts without one (`sound.restart()` brings it).
    init(
        on kind: SoundServerKind = .pulseAudio, arguments: [String] = ["--listen"], soundServerUp: Bool = true,
        environment: [String: String] = [:]
    ) throws {
        sound = try kind.start()
        if !soundServerUp { sound.kill() }
        directory = NSTemporaryDirectory() + "earshotd-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        daemon = try DaemonProcess(directory: directory, environment: sound.environment.merging(environment) { $1 }, arguments: arguments)
    }

    /// A client subscribed to `topics`, once the daemon reports `listening` through it.
    func subscribedClient(topics: [String], levelHz: Int = 30) throws -> LineSocket {
        let client = try LineSocket(path: daemon.socketPath)
        var early: [[String: Any]] = []
        let quoted = topics.map { "\"\($0)\"" }.joined(separator: ",")
        let response = try client.request(#"{"id":"sub","cmd":"subscribe","topics":[\#(quoted)],"level_hz":\#(levelHz)}"#, events: &early)
        guard response["ok"] as? Bool == true else { throw LineSocket.Failure(description: "subscribe failed: \(response)") }
        return client
    }

    func status() throws -> [String: Any] {
        let client = try LineSocket(path: daemon.socketPath)
        var ignored: [[String: Any]] = []
        return try client.request(#"{"id":"status","cmd":"status"}"#, events: &ignored)
    }

    /// The status once the daemon is connected to the sound server and, with
    /// `echoCancellation`, once its canceller has settled (active or unavailable); the last
    /// status read after `timeout`. A slow build (a sanitizer's) is still connecting at start.
    func connectedStatus(echoCancellation: Bool = false, timeout: TimeInterval = 10) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let status = try status()
            let audio = status["audio"] as? [String: Any]
            let connected = audio?["connected"] as? Bool == true
            let settled = !echoCancellation || (audio?["echo_cancellation"] as? String).map { $0 != "off" } == true
            if connected && settled || Date() >= deadline { return status }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// ``connectedStatus(echoCancellation:timeout:)`` from a daemon that may be restarting itself
    /// meanwhile (refusing connections, or not answering until it has): tried again until `timeout`.
    func connectedStatusAcrossRestarts(timeout: TimeInterval) -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        var status: [String: Any] = [:]
        while Date() < deadline, (status["audio"] as? [String: Any])?["connected"] as? Bool != true {
            status = (try? connectedStatus(timeout: min(1, max(0, deadline.timeIntervalSinceNow)))) ?? [:]
            Thread.sleep(forTimeInterval: 0.05)
        }
        return status
    }

    deinit {
        daemon.terminate()
        sound.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
