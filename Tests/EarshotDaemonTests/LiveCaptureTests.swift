import EarshotAudio
import EarshotConversation
import EarshotTestSupport
import Foundation
import Testing

/// The daemon listening through a real (private, headless) sound server: PulseAudio, and PipeWire.
@Suite(.serialized, .enabled(if: TestPeers.soundServers, "needs pulseaudio or pipewire-pulse (make deps installs both)"), .tags(.live))
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

    struct TimedEvent: Equatable, Sendable, CustomStringConvertible {
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

    struct ComparedRun: Sendable {
        var live: [TimedEvent]
        var expected: [TimedEvent]
        var liveMarker: Double?
        var replayMarker: Double?
        var playerStatus: Int32
    }

    /// Plays the marked fixture into the live daemon's microphone and replays it; the blocking
    /// work runs on its own thread so it does not starve other tests' tasks.
    static func compareLiveWithReplay(on kind: SoundServerKind) throws -> ComparedRun {
        let session = try LiveSession(on: kind)
        let clip = try markedClip()
        let path = session.directory + "/marked.wav"
        try WAVFile.write(clip, to: path)
        let client = try session.subscribedClient(topics: ["state", "speech", "level"], levelHz: 60)
        _ = client.events(timeout: 0.5)
        let player = try session.sound.play(path)
        let playerStatus = player.wait()
        // The second utterance ends 0.6 s of silence after its speech (+ the look-ahead).
        let live = summarize(client.events(timeout: 2))
        let replayed = summarize(try replayEvents(of: clip))
        let expected = replayed.events.filter { !$0.kind.hasPrefix("state-idle") && $0.kind != "state-listening-0" }
        return ComparedRun(
            live: live.events, expected: expected, liveMarker: live.marker, replayMarker: replayed.marker,
            playerStatus: playerStatus
        )
    }

    @Test(arguments: SoundServerKind.testable)
    func aFixtureIntoTheMicrophoneGivesTheEventsReplayGives(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.compareLiveWithReplay(on: kind) }
        #expect(run.playerStatus == 0)
        let liveMarker = try #require(run.liveMarker, "the click never showed in the live levels")
        let replayMarker = try #require(run.replayMarker)
        let offset = liveMarker - replayMarker
        #expect(run.expected.count >= 10, "\(run.expected)")
        #expect(run.live.map(\.kind) == run.expected.map(\.kind), "live \(run.live)\nreplay \(run.expected)")
        for (heard, replay) in zip(run.live, run.expected) {
            #expect(abs(heard.t - offset - replay.t) <= 0.05, "\(heard) vs \(replay) (offset \(offset))")
        }
    }

    struct RecoveryRun: Sendable {
        var errorCode: String?
        var errorMessage: String?
        var errorHasRetryIn: Bool
        var backChange: String?
        var reconnectSeconds: Double
        var levelsAfter: Int
        var samePIDStillRunning: Bool
        var stateAfter: String?
        var reconnects: Int?
    }

    static func killAndRestartTheSoundServer(on kind: SoundServerKind) throws -> RecoveryRun {
        let session = try LiveSession(on: kind)
        let client = try session.subscribedClient(topics: ["state", "error", "device", "level"], levelHz: 10)
        _ = client.events(timeout: 0.5)
        let pid = session.daemon.pid
        session.sound.kill(signal: SIGKILL)
        let error = client.events(timeout: 3) { $0["event"] as? String == "error" }.last
        try session.sound.restart()
        let restarted = Date()
        let back = client.events(timeout: 3) { $0["event"] as? String == "device" && $0["change"] as? String == "connected" }
        let reconnect = Date().timeIntervalSince(restarted)
        // Frames flow again: level readings arrive, and the daemon is the same process.
        let levels = client.events(timeout: 1).filter { $0["event"] as? String == "level" }
        let status = try session.status()
        return RecoveryRun(
            errorCode: error?["code"] as? String, errorMessage: error?["message"] as? String,
            errorHasRetryIn: error?["retry_in"] is Double, backChange: back.last?["change"] as? String,
            reconnectSeconds: reconnect, levelsAfter: levels.count,
            samePIDStillRunning: session.daemon.pid == pid && session.daemon.process.isRunning,
            stateAfter: (status["state"] as? [String: Any])?["state"] as? String,
            reconnects: (status["counters"] as? [String: Any])?["reconnects"] as? Int
        )
    }

    @Test(arguments: SoundServerKind.testable)
    func theSoundServerDyingAndComingBackKeepsTheSameDaemonListening(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.killAndRestartTheSoundServer(on: kind) }
        #expect(run.errorCode == "sound_server_lost")
        #expect(run.errorMessage?.contains("retrying") == true)
        #expect(run.errorHasRetryIn)
        #expect(run.backChange == "connected")
        #expect(run.reconnectSeconds < 1.0, "listening again \(run.reconnectSeconds) s after the server's return")
        #expect(run.levelsAfter >= 5)
        #expect(run.samePIDStillRunning)
        #expect(run.stateAfter == "listening")
        #expect(run.reconnects == 1)
    }

    struct ShutdownRun: Sendable {
        var socketBefore: Bool
        var status: Int32
        var socketAfter: Bool
        var log: String
    }

    @Test(.enabled(if: TestPeers.pulseAudio))
    func sigtermStopsCleanlyAndRemovesTheSocket() async throws {
        let run = try await onDedicatedThread {
            let session = try LiveSession()
            let before = FileManager.default.fileExists(atPath: session.daemon.socketPath)
            let status = session.daemon.terminate()
            return ShutdownRun(
                socketBefore: before, status: status,
                socketAfter: FileManager.default.fileExists(atPath: session.daemon.socketPath), log: session.daemon.log
            )
        }
        #expect(run.socketBefore)
        #expect(run.status == 0, "\(run.log)")
        #expect(!run.socketAfter)
        #expect(run.log.contains("Stopped"))
    }
}

/// The microphone is open only while voice mode is on and unmuted, and cues sound when asked for.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveMicrophoneTests {
    struct Run: Sendable {
        var framesIdle: [Int]
        var framesListening: [Int]
        var framesMuted: [Int]
        var framesAfterDismiss: [Int]
        var corkedWhileIdle: Bool
        var corkedWhileListening: Bool
        var corkedWhileMuted: Bool
        var corkedAfterUnmute: Bool
        var cuePeak: Float
    }

    static func frames(_ session: LiveSession) throws -> Int {
        try (session.status()["counters"] as? [String: Any])?["frames"] as? Int ?? -1
    }

    static func corked(_ session: LiveSession) throws -> Bool {
        try session.sound.pactl("list", "source-outputs").contains("Corked: yes")
    }

    static func send(_ command: String, to session: LiveSession) throws {
        var ignored: [[String: Any]] = []
        _ = try LineSocket(path: session.daemon.socketPath).request(#"{"id":1,"cmd":"\#(command)"}"#, events: &ignored)
    }

    /// Samples the frame counter twice, 0.3 s apart.
    static func twoSamples(_ session: LiveSession) throws -> [Int] {
        let first = try frames(session)
        Thread.sleep(forTimeInterval: 0.3)
        return [first, try frames(session)]
    }

    static func exercise(cues: Bool) throws -> Run {
        let session = try LiveSession(arguments: cues ? ["--cues"] : [])
        Thread.sleep(forTimeInterval: 0.3)
        let idle = try twoSamples(session)
        let corkedIdle = try corked(session)
        let recording = try session.sound.record()
        try send("start", to: session)
        Thread.sleep(forTimeInterval: 0.5)
        let listening = try twoSamples(session)
        let corkedListening = try corked(session)
        try send("mute", to: session)
        Thread.sleep(forTimeInterval: 0.3)
        let muted = try twoSamples(session)
        let corkedMuted = try corked(session)
        try send("unmute", to: session)
        Thread.sleep(forTimeInterval: 0.3)
        let corkedUnmuted = try corked(session)
        try send("dismiss", to: session)
        Thread.sleep(forTimeInterval: 0.5)
        let afterDismiss = try twoSamples(session)
        let recorded = recording.stop()
        return Run(
            framesIdle: idle, framesListening: listening, framesMuted: muted, framesAfterDismiss: afterDismiss,
            corkedWhileIdle: corkedIdle, corkedWhileListening: corkedListening, corkedWhileMuted: corkedMuted,
            corkedAfterUnmute: corkedUnmuted,
            cuePeak: recorded.map { abs($0) }.max() ?? 0
        )
    }

    @Test func theMicrophoneIsClosedWhileVoiceModeIsOff() async throws {
        let run = try await onDedicatedThread { try Self.exercise(cues: false) }
        #expect(run.framesIdle[0] == run.framesIdle[1], "frames arrive while idle: \(run.framesIdle)")
        #expect(run.corkedWhileIdle)
        #expect(run.framesListening[1] - run.framesListening[0] >= 20, "\(run.framesListening)")
        #expect(!run.corkedWhileListening)
        #expect(run.framesAfterDismiss[0] == run.framesAfterDismiss[1], "\(run.framesAfterDismiss)")
        #expect(run.cuePeak < 0.001, "the speaker played something without --cues: peak \(run.cuePeak)")
    }

    @Test func mutingClosesTheMicrophoneWhileAudioTimeRunsOn() async throws {
        let run = try await onDedicatedThread { try Self.exercise(cues: false) }
        #expect(run.corkedWhileMuted, "the record stream still runs while muted")
        // Frames of silence keep the turns' clock going: timeouts still fall due while muted.
        #expect(run.framesMuted[1] - run.framesMuted[0] >= 20, "\(run.framesMuted)")
        #expect(!run.corkedAfterUnmute)
    }

    @Test func cuesSoundOnEnteringAndLeavingVoiceModeWhenAskedFor() async throws {
        let run = try await onDedicatedThread { try Self.exercise(cues: true) }
        #expect(run.cuePeak > 0.1, "no cue reached the speaker: peak \(run.cuePeak)")
    }
}
