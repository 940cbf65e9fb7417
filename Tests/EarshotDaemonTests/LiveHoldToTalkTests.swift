import EarshotTestSupport
import Foundation
import Testing

/// Hold-to-talk and the status bar, live: `earshot hold` … `earshot release` with voice mode off,
/// and `earshot status --follow --format waybar` through every state and a daemon restart.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveHoldToTalkTests {
    /// "move my dentist appointment to … next tuesday", one sentence with a 1.13 s pause after "to".
    static let pausedSentence = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/endpointer/mid_sentence_pause.wav").path

    /// An event's keys as text, enough to compare.
    typealias Event = [String: String]

    struct HeldTurn: Sendable {
        var hold: BuiltProduct.Outcome
        var release: BuiltProduct.Outcome
        var events: [Event]
    }

    /// Voice mode off, end-of-turn silences well under the pause (300 ms, 500 ms after "to"):
    /// the key is held through the whole sentence and released once it has been played.
    static func holdThroughAPause() throws -> HeldTurn {
        let session = try LiveSession(arguments: [
            "--stt", "embedded", "--tts", "none", "--end-silence-ms", "300", "--max-end-silence-ms", "500",
            "--responder", "read line",
        ])
        _ = try session.connectedStatus()
        let client = try session.subscribedClient(topics: ["state", "speech", "transcript"])
        func earshot(_ command: String) throws -> BuiltProduct.Outcome {
            try BuiltProduct.run("earshot", [command, "--socket", session.daemon.socketPath])
        }
        let hold = try earshot("hold")
        let player = try session.sound.play(pausedSentence)
        _ = player.wait()
        let release = try earshot("release")
        var events = client.events(timeout: 20) { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }
        events += client.events(timeout: 20) { $0["event"] as? String == "state" && $0["state"] as? String == "idle" }
        return HeldTurn(hold: hold, release: release, events: events.map { $0.mapValues { "\($0)" } })
    }

    @Test func aHeldTurnEndsAtTheReleaseWhateverPausesItHas() async throws {
        let run = try await onDedicatedThread { try Self.holdThroughAPause() }
        #expect(run.hold.status == 0 && run.hold.stdoutText.hasPrefix("hearing"), "\(run.hold.stdoutText)\(run.hold.stderr)")
        #expect(run.release.status == 0 && run.release.stdoutText.hasPrefix("thinking"), "\(run.release.stdoutText)\(run.release.stderr)")
        let speech = run.events.filter { $0["event"] == "speech" }
        #expect(speech.map { $0["phase"] ?? "" } == ["start", "end"], "no end at the pause, no eager end: \(speech)")
        #expect(speech.last?["reason"] == "released")
        #expect(Set(speech.compactMap { $0["turn"] }).count == 1)
        let finals = run.events.filter { $0["event"] == "transcript" && $0["final"] == "1" }
        #expect(finals.count == 1, "one turn: \(finals)")
        let text = finals.first?["text"] ?? ""
        #expect(text.contains("dentist") && text.contains("tuesday"), "both halves in the one transcript: \(text)")
        let hearingTurns = Set(run.events.filter { $0["event"] == "state" && $0["state"] == "hearing" }.compactMap { $0["turn"] })
        #expect(hearingTurns.count <= 1)
        #expect(run.events.last?["state"] == "idle", "voice mode was off: back to off after the turn")
    }
}

// MARK: The status bar

extension LiveHoldToTalkTests {
    /// The lines `earshot status --follow --format waybar` printed, and the `class` of each.
    struct Panel: Sendable {
        var classes: [String]
        var lines: [String]
    }

    /// Drives the daemon through every state, stops it and starts it again, while the panel follows.
    static func followEveryState() throws -> Panel {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let directory = NSTemporaryDirectory() + "earshot-panel-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var daemon = try DaemonProcess(directory: directory, environment: sound.environment, arguments: ["--tts", "embedded"])
        defer { daemon.terminate() }
        guard let earshot = BuiltProduct.url("earshot") else { throw LineSocket.Failure(description: "earshot is not built") }
        let output = directory + "/panel.out"
        let panel = try ChildProcess(
            earshot.path, ["status", "--follow", "--format", "waybar", "--socket", daemon.socketPath],
            environment: ProcessInfo.processInfo.environment, outputPath: output
        )
        defer { _ = panel.terminate() }

        func lines() -> [String] { fileText(output).split(separator: "\n").map(String.init) }
        /// Waits until the panel has printed `count` lines (at most 10 s).
        func waitForLines(_ count: Int) {
            let deadline = Date().addingTimeInterval(10)
            while lines().count < count, Date() < deadline { usleep(10_000) }
        }
        func send(_ command: String) throws {
            var ignored: [[String: Any]] = []
            _ = try LineSocket(path: daemon.socketPath).request(#"{"id":1,"cmd":\#(command)}"#, events: &ignored)
        }
        waitForLines(1)
        let steps: [(command: String, newLines: Int)] = [
            (#""start""#, 1), (#""mute""#, 1), (#""unmute""#, 1), (#""hold""#, 1),
            // Without a transcriber the released turn has nothing to answer: thinking, then listening.
            (#""release""#, 2),
            (#""speak","text":"Hello there.""#, 3),
        ]
        var expected = 1
        for step in steps {
            try send(step.command)
            expected += step.newLines
            waitForLines(expected)
        }
        daemon.terminate()
        waitForLines(expected + 1)
        daemon = try DaemonProcess(directory: directory, environment: sound.environment, arguments: ["--tts", "embedded"])
        waitForLines(expected + 2)
        let printed = lines()
        let classes = printed.map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return object?["class"] as? String ?? "?"
        }
        return Panel(classes: classes, lines: printed)
    }

    @Test func theWaybarLineFollowsEveryStateAndTheDaemonRestarting() async throws {
        let panel = try await onDedicatedThread { try Self.followEveryState() }
        #expect(panel.classes == [
            "off", "listening", "muted", "listening", "hearing", "thinking", "listening", "thinking", "speaking", "listening",
            "not-running", "off",
        ], "\(panel.lines.joined(separator: "\n"))")
        #expect(panel.lines.first == #"{"text":"off","alt":"off","tooltip":"Earshot: voice mode is off","class":"off"}"#)
    }
}
