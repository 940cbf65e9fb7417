import EarshotAudio
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// Voice mode waiting for a phrase enrolled from the person's own takes (`[wake] templates`),
/// live: other speech does not wake it, the phrase does; template directories it cannot use are
/// refused in words, at start and on reload.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveWakeTemplateTests {
    static let speech = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech")

    /// Three takes of "hey computer" made from the fixture's (slower and lower, faster and
    /// higher, softer), enrolled into `directory`.
    static func enrol(into directory: String) throws {
        let samples = try WAVFile.read(speech.appendingPathComponent("wake_request_slt.wav").path).samples
        let phrase = Array(samples[16_000..<Int(1.76 * 16_000)])
        let quiet = [Float](repeating: 0, count: 8_000)
        let takes = [(1.06, Float(1)), (0.95, 1), (1.02, 0.5)].enumerated().map { index, take in
            let said = Resampler.resample(phrase, from: 16_000, to: Int(16_000 * take.0)).map { $0 * take.1 }
            return (name: "take\(index + 1)", clip: AudioClip(samples: quiet + said + quiet))
        }
        try WakeTemplates(takes: try WakeEnrolment.enrol(takes).takes).save(to: directory)
    }

    struct Run: Sendable {
        var waitingAfterOtherSpeech: String?
        var wakesAfterOtherSpeech: Int
        var wake: String?
    }

    static func listen() throws -> Run {
        let directory = try LiveConfigTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try enrol(into: directory + "/wake")
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "none", "--tts", "none", "--wake", "hey computer", "--wake-templates", directory + "/wake",
        ])
        let client = try session.subscribedClient(topics: ["wake"])
        _ = try session.connectedStatus()
        _ = try session.sound.play(speech.appendingPathComponent("one_request_slt.wav").path).wait()
        let early = client.events(timeout: 0.6)
        let waiting = (try session.status()["state"] as? [String: Any])?["waiting_for"] as? String
        let player = try session.sound.play(speech.appendingPathComponent("wake_request_slt.wav").path)
        let wake = client.events(timeout: 15) { $0["event"] as? String == "wake" }.last
        _ = player.wait()
        return Run(
            waitingAfterOtherSpeech: waiting, wakesAfterOtherSpeech: early.filter { $0["event"] as? String == "wake" }.count,
            wake: wake?["phrase"] as? String
        )
    }

    @Test func otherSpeechDoesNotWakeItAndTheEnrolledPhraseDoes() async throws {
        let run = try await onDedicatedThread { try Self.listen() }
        #expect(run.wakesAfterOtherSpeech == 0)
        #expect(run.waitingAfterOtherSpeech == "hey computer")
        #expect(run.wake == "hey computer")
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
        try enrol(into: directory + "/wake")
        try FileManager.default.removeItem(atPath: directory + "/wake/take3.wav")
        let path = directory + "/config.toml"
        try "[wake]\ntemplates = \"\(directory)/wake\"\n".write(toFile: path, atomically: true, encoding: .utf8)
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

        try enrol(into: directory + "/wake")
        let session = try LiveSession(arguments: ["--listen", "--stt", "none", "--tts", "none", "--config", path])
        let client = try session.subscribedClient(topics: ["error"])
        try Data("not a WAV file".utf8).write(to: URL(fileURLWithPath: directory + "/wake/take2.wav"))
        try "[wake]\ntemplates = \"\(directory)/wake\"\nidle_after = 5\n".write(toFile: path, atomically: true, encoding: .utf8)
        kill(session.daemon.pid, SIGHUP)
        let events = client.events(timeout: 10) { $0["code"] as? String == "config_invalid" }
        return Refusals(
            startStatus: status, startError: fileText(directory + "/stderr"),
            reloadMessage: events.last?["message"] as? String ?? "no config_invalid event"
        )
    }

    @Test func tooFewTakesOrAnUnreadableOneAreRefusedInWords() async throws {
        let run = try await onDedicatedThread { try Self.refuse() }
        #expect(run.startStatus == 78, "EX_CONFIG")
        #expect(run.startError.contains("[wake] templates:"), "\(run.startError)")
        #expect(run.startError.contains("has 2 takes of the phrase (WAV files), and at least 3 are needed"), "\(run.startError)")
        #expect(run.reloadMessage.hasPrefix("The configuration file was not reloaded"), "\(run.reloadMessage)")
        #expect(run.reloadMessage.contains("take2.wav cannot be read"), "\(run.reloadMessage)")
    }
}
