import EarshotTestSupport
import Foundation
import Testing

/// `earshot record` through a real (private, headless) PulseAudio: a fixture played into the
/// virtual microphone, recorded as Ogg Opus, replays to the speech events of the original WAV.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveRecordTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vad/dev_s07_clean.wav").path

    static func speechEvents(_ file: String) throws -> [(phase: String, t: Double)] {
        let result = try BuiltProduct.run("earshot", ["replay", file])
        guard result.status == 0 else { throw LineSocket.Failure(description: "replay of \(file) failed: \(result.stderr)") }
        return result.stdoutText.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "speech", let phase = object["phase"] as? String, let t = object["t"] as? Double
            else { return nil }
            return (phase, t)
        }
    }

    static func recordFixture() throws -> (status: Int32, output: String, recording: String) {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let recording = sound.directory + "/recorded.opus"
        let output = sound.directory + "/record.log"
        guard let earshot = BuiltProduct.url("earshot") else { throw LineSocket.Failure(description: "earshot is not built next to the tests") }
        let recorder = try ChildProcess(
            earshot.path, ["record", recording, "--seconds", "21.5"], environment: sound.environment, outputPath: output
        )
        Thread.sleep(forTimeInterval: 0.5)
        let player = try sound.play(fixture)
        _ = player.wait()
        let status = recorder.wait()
        let saved = NSTemporaryDirectory() + "earshot-record-\(UUID().uuidString.prefix(8)).opus"
        try? FileManager.default.copyItem(atPath: recording, toPath: saved)
        return (status, fileText(output), saved)
    }

    @Test func aRecordingOfTheMicrophoneReplaysToTheSameSpeechEventsAsTheFile() async throws {
        let run = try await onDedicatedThread { try Self.recordFixture() }
        defer { try? FileManager.default.removeItem(atPath: run.recording) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("recorded 21.50 s from mic"), "\(run.output)")
        let original = try Self.speechEvents(Self.fixture)
        let recorded = try Self.speechEvents(run.recording)
        #expect(original.count >= 4)
        try #require(recorded.count == original.count, "\(recorded) vs \(original)")
        let offset = recorded[0].t - original[0].t
        var worst = 0.0
        for (heard, played) in zip(recorded, original) {
            #expect(heard.phase == played.phase)
            worst = max(worst, abs(heard.t - offset - played.t))
        }
        print("record: \(original.count) speech events, recording offset \(String(format: "%.2f", offset)) s, worst difference \(String(format: "%.3f", worst)) s")
        #expect(worst <= 0.03, "speech boundaries moved by up to \(worst) s")
    }
}

@Suite struct RecordWithoutSoundServerTests {
    @Test func withNoSoundServerRecordSaysSoAndWritesNothing() async throws {
        let outcome = try await onDedicatedThread { () throws -> (status: Int32, output: String, exists: Bool) in
            let directory = NSTemporaryDirectory() + "earshot-record-" + UUID().uuidString.prefix(8)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            guard let earshot = BuiltProduct.url("earshot") else { throw LineSocket.Failure(description: "earshot is not built") }
            var environment = ProcessInfo.processInfo.environment
            environment["PULSE_SERVER"] = "unix:\(directory)/nothing-here"
            let recorder = try ChildProcess(
                earshot.path, ["record", directory + "/x.opus", "--seconds", "1"], environment: environment,
                outputPath: directory + "/out.log"
            )
            let status = recorder.wait()
            let output = fileText(directory + "/out.log")
            return (status, output, FileManager.default.fileExists(atPath: directory + "/x.opus"))
        }
        #expect(outcome.status != 0)
        #expect(outcome.output.contains("No sound server answered within 5 s"), "\(outcome.output)")
        #expect(!outcome.exists)
    }
}
