import EarshotTestSupport
import Foundation
import Testing

/// A reply asked for while the daemon is still connecting to the sound server (issue 22: `speak`
/// 10 ms after the daemon reached PipeWire, before its streams were up, failed). The daemon starts
/// with no server at all, and the server is started only once the reply's audio is waiting for it
/// (the daemon's log says so), so nothing depends on how fast the daemon connects.
@Suite(.serialized, .enabled(if: TestPeers.soundServers, "needs pulseaudio or pipewire-pulse (make deps installs both)"), .tags(.live))
struct LiveSpeakingBeforeTheServerTests {
    static let reply = "The sound server was not there when this reply was asked for. It waited, and now it is heard."
    /// What the engine logs when playback starts waiting for the connection.
    static let waitingLine = "playback waits for the sound server"
    static let awayMessage = "The sound server is away: the reply could not be played."
    /// The engine's default `connectionWait`.
    static let bound: Double = 5

    static func isSpeechFailed(_ event: [String: Any]) -> Bool {
        event["event"] as? String == "error" && event["code"] as? String == "speech_failed"
    }

    static func isSpeaker(_ phase: String) -> ([String: Any]) -> Bool {
        { $0["event"] as? String == "speaker" && $0["phase"] as? String == phase }
    }

    /// Whether the daemon's log says the reply waits, within `timeout`.
    static func logShowsTheWait(_ session: LiveSession, timeout: TimeInterval = 15) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if session.daemon.log.contains(waitingLine) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    struct WaitRun: Sendable {
        var accepted: Bool
        var waited: Bool
        var eventsBeforeTheServer: [String]
        var events: [String]
        var failures: [String]
        var loudSeconds: Double
        var log: String
    }

    static func speakThenStartTheServer(on kind: SoundServerKind) throws -> WaitRun {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--tts", "embedded"], soundServerUp: false)
        let client = try session.subscribedClient(topics: ["state", "error", "speaker", "device"])
        var events: [[String: Any]] = []
        let response = try client.request(#"{"id":"say","cmd":"speak","text":"\#(reply)"}"#, events: &events)
        let waited = logShowsTheWait(session)
        events += client.events(timeout: 0.1)
        let beforeTheServer = events.map(LiveSoundServerFaultTests.describe)
        try session.sound.restart()
        let recording = try session.sound.record()
        events += client.events(timeout: 30) { isSpeaker("end")($0) || isSpeechFailed($0) }
        events += client.events(timeout: 5) { LiveSoundServerFaultTests.state($0) == "listening" }
        Thread.sleep(forTimeInterval: 0.2)
        let recorded = recording.stop()
        return WaitRun(
            accepted: response["ok"] as? Bool == true, waited: waited, eventsBeforeTheServer: beforeTheServer,
            events: events.map(LiveSoundServerFaultTests.describe),
            failures: events.filter(isSpeechFailed).map { "\($0["message"] ?? "")" },
            loudSeconds: Double(recorded.filter { abs($0) > 0.02 }.count) / 16_000, log: session.daemon.log
        )
    }

    @Test(arguments: SoundServerKind.testable)
    func aReplyAskedForBeforeTheServerIsUpWaitsForItAndIsHeard(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.speakThenStartTheServer(on: kind) }
        #expect(run.accepted)
        #expect(run.waited, "the reply never waited for the server:\n\(run.log.suffix(3000))")
        #expect(!run.eventsBeforeTheServer.contains("speaker:start"), "\(run.eventsBeforeTheServer)")
        #expect(run.failures.isEmpty, "\(run.failures)\n\(run.log.suffix(3000))")
        #expect(run.events.contains("device:connected"), "\(run.events)")
        #expect(run.events.contains("speaker:start") && run.events.contains("speaker:end"), "\(run.events)")
        #expect(run.events.filter { $0.hasPrefix("state:") }.suffix(2) == ["state:speaking", "state:listening"], "\(run.events)")
        #expect(run.loudSeconds > 0.5, "only \(run.loudSeconds) s of the reply reached the speaker")
    }

    struct BoundRun: Sendable {
        var waited: Bool
        var failures: [String]
        var secondsToFailure: Double
        var events: [String]
        var log: String
    }

    static func speakWithNoServer(on kind: SoundServerKind) throws -> BoundRun {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--tts", "embedded"], soundServerUp: false)
        let client = try session.subscribedClient(topics: ["state", "error", "speaker"])
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":"say","cmd":"speak","text":"\#(reply)"}"#, events: &events)
        let asked = Date()
        events += client.events(timeout: bound + 10) { isSpeechFailed($0) }
        let seconds = Date().timeIntervalSince(asked)
        events += client.events(timeout: 0.5)
        return BoundRun(
            waited: session.daemon.log.contains(waitingLine),
            failures: events.filter(isSpeechFailed).map { "\($0["message"] ?? "")" },
            secondsToFailure: seconds, events: events.map(LiveSoundServerFaultTests.describe), log: session.daemon.log
        )
    }

    @Test(arguments: SoundServerKind.testable)
    func withNoServerForLongerThanTheBoundTheReplyFailsClearly(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.speakWithNoServer(on: kind) }
        #expect(run.waited, "\(run.log.suffix(3000))")
        #expect(run.failures == [Self.awayMessage], "\(run.events)\n\(run.log.suffix(3000))")
        // The wait begins once the first audio is made, a little after the request.
        #expect(run.secondsToFailure >= Self.bound - 0.05 && run.secondsToFailure < Self.bound + 5, "failed after \(run.secondsToFailure) s")
        #expect(!run.events.contains("speaker:start"), "\(run.events)")
        #expect(run.events.last { $0.hasPrefix("state:") } == "state:listening", "\(run.events)")
    }
}
