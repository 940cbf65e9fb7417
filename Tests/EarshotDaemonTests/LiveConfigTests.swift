import EarshotTestSupport
import Foundation
import Testing

/// `earshotd` and its configuration file, live: refused when broken, reloaded on SIGHUP.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveConfigTests {
    static let utterance = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/endpointer/utterance_after_silence.wav").path

    static func scratchDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "earshotd-config-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    struct RefusedStart: Sendable {
        var status: Int32?
        var stderr: String
        var path: String
        var socketExists: Bool
    }

    static func startWithABrokenFile() throws -> RefusedStart {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "[listening]\nend_silence_ms = \"700\"\n[speech]\nvoise = \"sky\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        guard let binary = DaemonProcess.binary else { throw DaemonProcess.NotBuilt() }
        let socket = directory + "/earshot.sock"
        let environment = ProcessInfo.processInfo.environment.merging(sound.environment) { $1 }
        let daemon = try ChildProcess(
            binary.path, ["--config", path, "--socket", socket, "--stt", "none", "--tts", "none"],
            environment: environment, outputPath: directory + "/stdout", errorPath: directory + "/stderr"
        )
        let deadline = Date().addingTimeInterval(10)
        while daemon.isRunning, Date() < deadline { usleep(10_000) }
        let status: Int32? = daemon.isRunning ? nil : daemon.wait()
        daemon.terminate()
        return RefusedStart(
            status: status, stderr: fileText(directory + "/stderr"),
            path: path, socketExists: FileManager.default.fileExists(atPath: socket)
        )
    }

    @Test func aBrokenFileStopsTheDaemonWithTheSameLinesAsConfigCheck() async throws {
        let run = try await onDedicatedThread { try Self.startWithABrokenFile() }
        #expect(run.status == 78, "EX_CONFIG")
        #expect(run.stderr == """
            \(run.path):2:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("700")
            \(run.path):4:1: [speech] voise: unknown key; did you mean voice?
            earshotd: not started: fix \(run.path) (`earshot config check` shows the same)

            """)
        #expect(!run.socketExists)
    }

    struct Reloads: Sendable {
        var settingsBefore: [String: [String: String]]
        var voiceBefore: String?
        var gapBefore: Double?
        var configEvent: [String: [String]]
        var settingsAfter: [String: [String: String]]
        var voiceAfter: String?
        var statusText: String
        var gapAfter: Double?
        var brokenError: [String: String]
        var settingsAfterBroken: [String: [String: String]]
        var lastErrorCode: String?
        var stillRunning: Bool
        var path: String
    }

    /// `settings` of a status response, every value as text.
    static func settings(_ status: [String: Any]) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        for (section, keys) in status["settings"] as? [String: Any] ?? [:] {
            for (key, value) in keys as? [String: Any] ?? [:] {
                sections[section, default: [:]][key] = value is NSNull ? "null" : "\(value)"
            }
        }
        return sections
    }

    /// Plays one utterance into the microphone; returns the time from the end of its speech to
    /// `thinking`: the end-of-turn silence the endpointer is using (plus the detector's look-ahead).
    static func endOfTurnGap(_ session: LiveSession, _ client: LineSocket) throws -> Double? {
        _ = client.events(timeout: 0.3)
        _ = try session.sound.play(utterance).wait()
        let events = client.events(timeout: 3) { $0["event"] as? String == "state" && $0["state"] as? String == "thinking" }
        guard let end = events.last(where: { $0["event"] as? String == "speech" && $0["phase"] as? String == "end" })?["t"] as? Double,
              let thinking = events.last?["t"] as? Double, events.last?["state"] as? String == "thinking"
        else { return nil }
        _ = client.events(timeout: 0.5)
        return thinking - end
    }

    static func reloadTwice() throws -> Reloads {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        try write("[daemon]\nlisten = true\n[listening]\nend_silence_ms = 700\nmin_speech_ms = 100\n[speech]\nvoice = \"sky\"\n")
        let session = try LiveSession(arguments: ["--config", path, "--tts", "none", "--min-speech-ms", "200"])
        let client = try session.subscribedClient(topics: ["state", "speech", "error", "config"])
        let before = try session.status()
        let gapBefore = try endOfTurnGap(session, client)

        try write("[daemon]\nlisten = true\n[audio]\necho_cancellation = true\n[listening]\nend_silence_ms = 1500\nmin_speech_ms = 120\neagerness = \"low\"\n[speech]\nvoice = \"cove\"\n")
        kill(session.daemon.pid, SIGHUP)
        let config = client.events(timeout: 5) { $0["event"] as? String == "config" }.last ?? [:]
        let after = try session.status()
        let statusText = try BuiltProduct.run("earshot", ["status", "--socket", session.daemon.socketPath]).stdoutText
        let gapAfter = try endOfTurnGap(session, client)

        try write("[daemon]\nlisten = true\n[listening]\nend_silence_ms = \"soon\"\n")
        kill(session.daemon.pid, SIGHUP)
        let error = client.events(timeout: 5) { $0["event"] as? String == "error" }.last ?? [:]
        let afterBroken = try session.status()
        return Reloads(
            settingsBefore: settings(before), voiceBefore: (before["backends"] as? [String: Any])?["voice"] as? String,
            gapBefore: gapBefore,
            configEvent: config.compactMapValues { $0 as? [String] }.merging(["file": [config["file"] as? String ?? ""]]) { $1 },
            settingsAfter: settings(after), voiceAfter: (after["backends"] as? [String: Any])?["voice"] as? String,
            statusText: statusText, gapAfter: gapAfter,
            brokenError: error.compactMapValues { $0 as? String },
            settingsAfterBroken: settings(afterBroken),
            lastErrorCode: ((afterBroken["errors"] as? [[String: Any]])?.last)?["code"] as? String,
            stillRunning: session.daemon.process.isRunning, path: path
        )
    }

    @Test func sighupAppliesAnEditAndKeepsTheSettingsWhenTheEditIsBroken() async throws {
        let run = try await onDedicatedThread { try Self.reloadTwice() }
        // At start: the file, with the command line's --min-speech-ms over it.
        #expect(run.settingsBefore["listening"]?["end_silence_ms"] == "700")
        #expect(run.settingsBefore["listening"]?["min_speech_ms"] == "200")
        #expect(run.voiceBefore == "sky")
        let gapBefore = try #require(run.gapBefore, "no end of speech heard before the reload")
        #expect(abs(gapBefore - 0.73) <= 0.1, "\(gapBefore)")

        // The good edit: applied live, except what needs a restart; the option still wins.
        #expect(run.configEvent == [
            "file": [run.path], "applied": ["listening.end_silence_ms", "listening.eagerness", "speech.voice"],
            "restart_needed": ["audio.echo_cancellation"], "overridden": ["listening.min_speech_ms"],
        ])
        #expect(run.settingsAfter["listening"]?["end_silence_ms"] == "1500")
        #expect(run.settingsAfter["listening"]?["min_speech_ms"] == "200")
        #expect(run.settingsBefore["listening"]?["eagerness"] == "medium")
        #expect(run.settingsAfter["listening"]?["eagerness"] == "low")
        #expect(run.settingsAfter["audio"]?["echo_cancellation"] == run.settingsBefore["audio"]?["echo_cancellation"])
        #expect(run.voiceAfter == "cove")
        #expect(run.statusText.contains("end silence 1500 ms · eagerness low"), "\(run.statusText)")
        let gapAfter = try #require(run.gapAfter, "no end of speech heard after the reload")
        #expect(abs(gapAfter - 1.53) <= 0.1, "\(gapAfter)")

        // The broken edit: an error naming the line and key, and nothing changes.
        #expect(run.brokenError["code"] == "config_invalid")
        #expect(run.brokenError["message"] == """
            The configuration file was not reloaded; the settings stay as they were. \
            \(run.path):4:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("soon")
            """)
        #expect(run.settingsAfterBroken["listening"]?["end_silence_ms"] == "1500")
        #expect(run.lastErrorCode == "config_invalid")
        #expect(run.stillRunning)
    }

    /// With the assistant configured, a reloaded `[replies] responder` is not used: the log says
    /// so, and the assistant still answers (no request is made: the server need not be there).
    @Test func aResponderReloadedBesideTheAssistantIsNotUsed() async throws {
        let run = try await onDedicatedThread { () throws -> (applied: [String]?, replies: String?, log: String) in
            let directory = try Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/config.toml"
            let server = "openai+http://127.0.0.1:\(try SocketProbe.freeLoopbackPort())/v1"
            func write(_ responder: String) throws {
                try "[replies]\nresponder = \"\(responder)\"\n[assistant]\nserver = \"\(server)\"\nmodel = \"m\"\n"
                    .write(toFile: path, atomically: true, encoding: .utf8)
            }
            try write("echo first")
            let session = try LiveSession(arguments: ["--config", path, "--tts", "none", "--stt", "none"])
            let client = try session.subscribedClient(topics: ["config"])
            try write("echo second")
            kill(session.daemon.pid, SIGHUP)
            let event = client.events(timeout: 5) { $0["event"] as? String == "config" }.last ?? [:]
            let replies = (try session.status()["backends"] as? [String: Any])?["replies"] as? String
            return (event["applied"] as? [String], replies, session.daemon.log)
        }
        #expect(run.applied == ["replies.responder"], "\(String(describing: run.applied))")
        #expect(run.replies?.hasPrefix("assistant at http://127.0.0.1:") == true, "\(String(describing: run.replies))")
        #expect(run.log.contains("[replies] responder changed, but the assistant at http://127.0.0.1:"), "\(run.log)")
    }
}
