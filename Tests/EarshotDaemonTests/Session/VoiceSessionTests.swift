@testable import EarshotDaemon
import EarshotAudio
import EarshotConversation
import EarshotProtocol
import EarshotTestSupport
import EarshotTurns
import Foundation
import Testing

/// `VoiceSession` performing the turn machine's effects on the parts they name, with no sound
/// server (`SessionRig`): the frames are a recording handed to it as the capture thread would,
/// the player's reports are given to it by the test, and what front ends are told is read from
/// the real socket server.
@Suite(.sharesEmbeddedSpeech) struct VoiceSessionTests {
    /// Silence, then `seconds` of a recorded request from its first word on, then silence, as
    /// the capture thread hands frames on (numbered from the first).
    static func frames(speech seconds: Double) throws -> [AudioFrame] {
        let clip = try WAVFile.read(TestFixtures.path("speech/one_request_slt.wav"))
        let onset = 85
        var frames: [AudioFrame] = (0..<100).map { AudioFrame.silence(index: $0) }
        for index in onset..<(onset + Int(seconds * 100)) {
            frames.append(AudioFrame(index: frames.count, samples: clip.frame(at: index).samples))
        }
        while frames.count < 100 + Int(seconds * 100) + 150 { frames.append(.silence(index: frames.count)) }
        return frames
    }

    /// Voice mode on and reply 1 playing: the state a barge-in or a `stop` finds.
    static func speaking(_ rig: SessionRig) throws {
        _ = try rig.session.apply { $0.start() }.get()
        _ = try rig.session.apply { $0.replyRequested(turn: nil, text: "A long reply about the weather tomorrow.") }.get()
        rig.session.handle(PlaybackReport.started(reply: 1))
        #expect(rig.session.snapshot.phase == .speaking)
    }

    /// What the socket's subscriber reads of `topics` while `drive` runs, up to the first event
    /// `last` matches.
    static func told(
        _ rig: SessionRig, topics: [String], drive: @escaping @Sendable () throws -> Void, until last: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws -> [String] {
        try await rig.withSocket { path in
            try await onDedicatedThread { () throws -> [String] in
                let client = try LineSocket(path: path)
                var ignored: [[String: Any]] = []
                let topicList = topics.map { "\"\($0)\"" }.joined(separator: ",")
                _ = try client.request(#"{"id":1,"cmd":"subscribe","topics":[\#(topicList)]}"#, events: &ignored, timeout: 60)
                try drive()
                return client.events(timeout: 60, until: last).map { event in
                    let name = event["event"] as? String ?? "?"
                    let detail = event["phase"] as? String ?? event["state"] as? String ?? event["code"] as? String ?? ""
                    return "\(name) \(detail)"
                }
            }
        }
    }

    @Test func speechOverAReplyPausesItThenTakesTheTurnAndTheReplyIsStopped() async throws {
        let rig = try SessionRig(speech: true)
        try Self.speaking(rig)
        let frames = try Self.frames(speech: 1.2)
        let told = try await Self.told(rig, topics: ["speaker", "state"], drive: {
            for frame in frames { rig.session.process(frame) }
        }, until: { ($0["state"] as? String).map { $0 == "hearing" || $0 == "thinking" } ?? false })
        #expect(told.first == "speaker pause", "\(told)")
        #expect(told.last == "state hearing" || told.last == "state thinking", "\(told)")
        // The stop went to the player, which silenced the reply and told what of it was heard.
        #expect(rig.reports.contains(.stopped(reply: 1)), "\(rig.reports)")
        #expect(rig.reports.contains(.heard(reply: 1, text: "")), "\(rig.reports)")
    }

    @Test func aShortBurstOverAReplyPausesItAndResumesIt() async throws {
        let rig = try SessionRig(speech: true)
        try Self.speaking(rig)
        let frames = try Self.frames(speech: 0.28)
        let told = try await Self.told(rig, topics: ["speaker"], drive: {
            for frame in frames { rig.session.process(frame) }
        }, until: { $0["phase"] as? String == "resume" })
        #expect(told == ["speaker pause", "speaker resume"])
        #expect(rig.session.snapshot.phase == .speaking)
        #expect(!rig.reports.contains(.stopped(reply: 1)), "a resumed reply is not stopped")
    }

    @Test func stopWhileSpeakingStopsThePlayersReplyAndListens() throws {
        let rig = try SessionRig(speech: true)
        try Self.speaking(rig)
        let snapshot = try rig.session.apply { $0.stop() }.get()
        #expect(snapshot.phase == .listening)
        #expect(rig.reports.contains(.stopped(reply: 1)), "\(rig.reports)")
        #expect(rig.engine.microphone == .open)
    }

    /// A reply stopped while its responder is still giving it text: the player stops it and the
    /// responder's command is stopped too (the machine's `stopPlayback`, then `discardReply`).
    @Test func stoppingAStreamedReplyStopsThePlayerAndTheResponder() async throws {
        let pidFile = "/tmp/earshot-responder-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let rig = try SessionRig(speech: true, transcription: true, responder: "echo $$ > \(pidFile); echo Sure.; exec sleep 30")
        _ = try rig.session.apply { $0.start() }.get()
        _ = try rig.session.apply { $0.hold() }.get()
        _ = try rig.session.apply { $0.release() }.get()
        rig.session.handle(TranscriptionReport.final(turn: 1, text: "what time is it"))
        // The responder's first line starts reply 1; the test says it began playing once it has.
        // The bound is generous: with every suite running in parallel on two cores, the
        // responder's task may wait long for a thread.
        let speaking = await eventually(within: .seconds(60)) {
            rig.session.handle(PlaybackReport.started(reply: 1))
            return rig.session.snapshot.phase == .speaking
        }
        try #require(speaking, "the responder's first line never became reply 1: \(rig.session.snapshot)")
        let pid = try #require(Int32(String(decoding: FileManager.default.contents(atPath: pidFile) ?? Data(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(ProcessTable.exists(pid), "the responder is still giving its reply")

        _ = try rig.session.apply { $0.stop() }.get()
        #expect(rig.reports.contains(.stopped(reply: 1)), "\(rig.reports)")
        #expect(await eventually(within: .seconds(60)) { !ProcessTable.exists(pid) }, "the responder's command was left running")
    }

    /// A reply the player could not say is an error front ends and `status` see, with its code;
    /// the turn goes on.
    @Test func aReplyThatCouldNotBeSaidIsReportedWithItsCodeAndTheTurnGoesOn() throws {
        let rig = try SessionRig(speech: true)
        _ = try rig.session.apply { $0.start() }.get()
        _ = try rig.session.apply { $0.replyRequested(turn: nil, text: "Hello.") }.get()
        rig.session.handle(PlaybackReport.failed(reply: 1, code: .speechFailed, message: "The sound server is away: the reply could not be played."))
        let reported = try #require(rig.session.recentErrors.last)
        #expect(reported.code == "speech_failed")
        #expect(reported.message == "The sound server is away: the reply could not be played.")
        #expect(rig.session.snapshot.phase == .listening)
    }

    /// A reply's voice that does not exist is refused by the player's report, in words, and
    /// nothing else says it.
    @Test func aReplyInAVoiceThatDoesNotExistIsRefusedNotStoodInFor() throws {
        let rig = try SessionRig(speech: true)
        _ = try rig.session.apply { $0.start() }.get()
        _ = try rig.session.apply { $0.replyRequested(turn: nil, text: "Hello.", voice: "ember") }.get()
        #expect(rig.reports == [.failed(reply: 1, code: .unknownVoice, message: "There is no voice called \"ember\". Voices: breeze, cove.")])
    }

    @Test func aStreamedReplyIsTakenOnlyWhileItsTurnWantsOne() throws {
        let rig = try SessionRig(speech: true)
        _ = try rig.session.apply { $0.start() }.get()
        #expect(rig.session.startStreamedReply(turn: 7, text: "Sure.") == nil, "no turn 7 asked for a reply")
        #expect(!rig.session.continueStreamedReply(3, text: "More.", more: false), "there is no reply 3")
    }

    @Test func anErrorOutsideTheMachineIsKeptForStatusTheLastTenOnly() throws {
        let rig = try SessionRig()
        for number in 1...12 { rig.session.reportError(.soundServerLost, message: "Lost \(number).") }
        let errors = rig.session.recentErrors
        #expect(errors.count == RecentErrors.capacity)
        #expect(errors.first?.message == "Lost 3.")
        #expect(errors.last?.message == "Lost 12.")
        #expect(errors.allSatisfy { $0.code == "sound_server_lost" })
    }
}
