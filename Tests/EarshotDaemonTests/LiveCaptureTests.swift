import EarshotAudio
import EarshotDetection
import EarshotPipeline
import EarshotTestSupport
import Foundation
import Testing

/// The daemon listening through a real (private, headless) PulseAudio server.
@Suite(.serialized, .enabled(if: PulseTestServer.isAvailable, "needs pulseaudio (make deps installs it)"))
struct LiveCaptureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A 5 ms click (to align live and replayed time), a second of silence, then two phrases.
    static func markedClip() throws -> AudioClip {
        let speech = try WAVFile.read(fixtures.appendingPathComponent("endpointer/two_phrases_long_pause.wav").path)
        var samples = [Float](repeating: 0, count: 16_000)
        var seed: UInt32 = 12_345
        for i in 0..<80 {
            seed = seed &* 1_103_515_245 &+ 12_345
            samples[i] = (Float(seed >> 16 & 0x7FFF) / 16_384 - 1) * 0.3
        }
        return AudioClip(samples: samples + speech.samples)
    }

    struct TimedEvent: Equatable, CustomStringConvertible {
        var kind: String
        var t: Double
        var description: String { "\(kind)@\(String(format: "%.2f", t))" }
    }

    /// Speech and state events (not levels), and the time of the first loud level reading.
    static func summarize(_ events: [[String: Any]]) -> (marker: Double?, events: [TimedEvent]) {
        var marker: Double?
        var timed: [TimedEvent] = []
        for event in events {
            guard let name = event["event"] as? String, let t = event["t"] as? Double else { continue }
            switch name {
            case "level":
                if marker == nil, let rms = event["rms_dbfs"] as? Double, rms > -60 { marker = t }
            case "speech":
                timed.append(TimedEvent(kind: "speech-\(event["phase"] as? String ?? "?")", t: t))
            case "state":
                timed.append(TimedEvent(kind: "state-\(event["state"] as? String ?? "?")-\(event["turn"] as? Int ?? -1)", t: t))
            default:
                break
            }
        }
        return (marker, timed)
    }

    static func replayEvents(of clip: AudioClip) throws -> [[String: Any]] {
        var replay = Replay(detector: SpectralVAD(), configuration: .init(
            levelMeter: LevelMeter.Configuration(readingsPerSecond: 60), emitsLevels: true
        ))
        var output: [UInt8] = []
        replay.run(clip) { output += $0 }
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    @Test func aFixtureIntoTheMicrophoneGivesTheEventsReplayGives() throws {
        let session = try LiveSession()
        let clip = try Self.markedClip()
        let path = session.directory + "/marked.wav"
        try WAVFile.write(clip, to: path)
        let client = try session.subscribedClient(topics: ["state", "speech", "level"], levelHz: 60)
        _ = client.events(timeout: 0.5)
        let player = try session.sound.play(path)
        #expect(player.wait() == 0)
        // The second utterance ends 0.6 s of silence after its speech (+ the look-ahead).
        let live = Self.summarize(client.events(timeout: 2))
        let replayed = Self.summarize(try Self.replayEvents(of: clip))
        let liveMarker = try #require(live.marker, "the click never showed in the live levels")
        let replayMarker = try #require(replayed.marker)
        let offset = liveMarker - replayMarker
        let expected = replayed.events.filter { !$0.kind.hasPrefix("state-idle") && $0.kind != "state-listening-0" }
        #expect(expected.count >= 10, "\(expected)")
        #expect(live.events.map(\.kind) == expected.map(\.kind), "live \(live.events)\nreplay \(expected)")
        for (heard, replay) in zip(live.events, expected) {
            #expect(abs(heard.t - offset - replay.t) <= 0.05, "\(heard) vs \(replay) (offset \(offset))")
        }
    }

    @Test func theSoundServerDyingAndComingBackKeepsTheSameDaemonListening() throws {
        let session = try LiveSession()
        let client = try session.subscribedClient(topics: ["state", "error", "device", "level"], levelHz: 10)
        _ = client.events(timeout: 0.5)
        let pid = session.daemon.pid
        session.sound.kill(signal: SIGKILL)
        let lost = client.events(timeout: 3) { $0["event"] as? String == "error" }
        let error = try #require(lost.last, "no event after the sound server was killed")
        #expect(error["code"] as? String == "sound_server_lost")
        #expect((error["message"] as? String)?.contains("retrying") == true)
        #expect(error["retry_in"] is Double)

        try session.sound.restart()
        let restarted = Date()
        let back = client.events(timeout: 3) { $0["event"] as? String == "device" && $0["change"] as? String == "connected" }
        #expect(back.last?["change"] as? String == "connected", "\(back)")
        let reconnect = Date().timeIntervalSince(restarted)
        #expect(reconnect < 1.0, "listening again \(reconnect) s after the server's return")
        // Frames flow again: level readings arrive, and the daemon is the same process.
        let levels = client.events(timeout: 1).filter { $0["event"] as? String == "level" }
        #expect(levels.count >= 5)
        #expect(session.daemon.pid == pid && session.daemon.process.isRunning)
        let status = try session.status()
        let state = status["state"] as? [String: Any]
        #expect(state?["state"] as? String == "listening")
        let counters = status["counters"] as? [String: Any]
        #expect(counters?["reconnects"] as? Int == 1)
    }

    @Test func sigtermStopsCleanlyAndRemovesTheSocket() throws {
        let session = try LiveSession()
        #expect(FileManager.default.fileExists(atPath: session.daemon.socketPath))
        let status = session.daemon.terminate()
        #expect(status == 0, "\(session.daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: session.daemon.socketPath))
        #expect(session.daemon.log.contains("Stopped"))
    }
}
