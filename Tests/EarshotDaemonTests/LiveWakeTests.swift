import EarshotTestSupport
import Foundation
import Testing

/// Voice mode with a wake phrase, live: it waits for "hey computer", the request after it is a
/// turn that is answered aloud, and after `idle_after` without speech it waits again. A phrase
/// pocketsphinx cannot pronounce is refused in words, at start and on reload.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveWakeTests {
    /// "hey computer", then "turn on the kitchen lights" (flite slt; `earshot-bench wake --write-fixture`).
    static let wakeRequest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/wake_request_slt.wav").path

    struct Conversation: Sendable {
        var waitingAtStart: String?
        var timeline: [String]
    }

    static func converse() throws -> Conversation {
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--responder", #"read line; echo "The lights are on.""#,
            "--wake", "hey computer", "--wake-idle-after", "1",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript", "wake"])
        let waiting = (try session.status()["state"] as? [String: Any])?["waiting_for"] as? String
        let player = try session.sound.play(wakeRequest)
        var events = client.events(timeout: 30) { event in
            event["event"] as? String == "state" && event["state"] as? String == "speaking"
        }
        events += client.events(timeout: 30) { event in
            event["event"] as? String == "state" && event["waiting_for"] as? String == "hey computer"
        }
        _ = player.wait()
        let timeline = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "wake": "wake: \(event["phrase"] as? String ?? "")"
            case "state": (event["state"] as? String ?? "") + ((event["waiting_for"] as? String).map { " (say '\($0)')" } ?? "")
            case "transcript" where event["final"] as? Bool == true: "final: \(event["text"] as? String ?? "")"
            default: nil
            }
        }
        return Conversation(waitingAtStart: waiting, timeline: timeline)
    }

    @Test func wakesTakesTheRequestAnswersItAndWaitsAgainAfterIdleAfter() async throws {
        let run = try await onDedicatedThread { try Self.converse() }
        #expect(run.waitingAtStart == "hey computer")
        let wake = try #require(run.timeline.firstIndex(of: "wake: hey computer"), "\(run.timeline)")
        let rest = Array(run.timeline[(wake + 1)...])
        #expect(rest.first == "listening", "awake, no longer waiting: \(run.timeline)")
        #expect(rest.contains("hearing") && rest.contains("speaking"), "\(run.timeline)")
        #expect(rest.contains { $0.hasPrefix("final: ") && $0.contains("kitchen") }, "\(run.timeline)")
        #expect(rest.last == "listening (say 'hey computer')", "\(run.timeline)")
        #expect(!run.timeline.prefix(wake).contains("hearing"), "no turn before the phrase: \(run.timeline)")
    }

    static func talkThenSpeak() throws -> Conversation {
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--responder", #"read line; echo "The lights are on.""#,
            "--wake", "hey computer", "--wake-idle-after", "8",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript", "wake"])
        var early: [[String: Any]] = []
        let answer = try client.request(#"{"id":"t","cmd":"talk"}"#, events: &early)
        guard answer["ok"] as? Bool == true else { throw LineSocket.Failure(description: "talk failed: \(answer)") }
        let waiting = (try session.status()["state"] as? [String: Any])?["waiting_for"] as? String
        let player = try session.sound.play(wakeRequest)
        let events = client.events(timeout: 30) { event in
            event["event"] as? String == "state" && event["state"] as? String == "speaking"
        }
        _ = player.wait()
        let timeline = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "wake": "wake"
            case "state": event["state"] as? String
            case "transcript" where event["final"] as? Bool == true: "final: \(event["text"] as? String ?? "")"
            default: nil
            }
        }
        return Conversation(waitingAtStart: waiting, timeline: timeline)
    }

    @Test func talkStandsInForThePhrase() async throws {
        let run = try await onDedicatedThread { try Self.talkThenSpeak() }
        #expect(run.waitingAtStart == nil, "after talk it no longer waits for the phrase")
        #expect(!run.timeline.contains("wake"), "\(run.timeline)")
        #expect(run.timeline.contains("hearing") && run.timeline.contains("speaking"), "\(run.timeline)")
        #expect(run.timeline.contains { $0.hasPrefix("final: ") && $0.contains("kitchen") }, "\(run.timeline)")
    }

    struct Refusals: Sendable {
        var startStatus: Int32?
        var startError: String
        var reloadMessage: String
    }

    static func refuse() throws -> Refusals {
        let directory = try LiveConfigTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let binary = DaemonProcess.binary else { throw DaemonProcess.NotBuilt() }
        let path = directory + "/config.toml"
        try "[wake]\nphrase = \"hey florbnax\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let sound = try PulseTestServer()
        let environment = ProcessInfo.processInfo.environment.merging(sound.environment) { $1 }
        let refused = try ChildProcess(
            binary.path, ["--config", path, "--socket", directory + "/refused.sock", "--stt", "none", "--tts", "none"],
            environment: environment, outputPath: directory + "/stdout", errorPath: directory + "/stderr"
        )
        let deadline = Date().addingTimeInterval(10)
        while refused.isRunning, Date() < deadline { usleep(10_000) }
        let status: Int32? = refused.isRunning ? nil : refused.wait()
        refused.terminate()
        sound.stop()

        try "[wake]\nphrase = \"hey computer\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let session = try LiveSession(arguments: ["--listen", "--stt", "none", "--tts", "none", "--config", path])
        let client = try session.subscribedClient(topics: ["error"])
        try "[wake]\nphrase = \"\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        kill(session.daemon.pid, SIGHUP)
        let events = client.events(timeout: 10) { $0["code"] as? String == "config_invalid" }
        return Refusals(
            startStatus: status, startError: fileText(directory + "/stderr"),
            reloadMessage: events.last?["message"] as? String ?? "no config_invalid event"
        )
    }

    @Test func aPhraseItCannotPronounceOrAnEmptyOneIsRefusedInWords() async throws {
        let run = try await onDedicatedThread { try Self.refuse() }
        #expect(run.startStatus == 78, "EX_CONFIG")
        #expect(run.startError.contains("[wake] phrase: expected English words pocketsphinx can pronounce"), "\(run.startError)")
        #expect(run.startError.contains("\"florbnax\""), "\(run.startError)")
        #expect(run.reloadMessage.hasPrefix("The configuration file was not reloaded"), "\(run.reloadMessage)")
        #expect(run.reloadMessage.contains("the wake phrase is empty"), "\(run.reloadMessage)")
    }
}
