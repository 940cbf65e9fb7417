import EarshotConversation
import Foundation
import Testing

/// A scripted conversation replayed in this process with real flite voices, no transcriber:
/// turns end at their endpoint, replies play in audio time, barge-in follows the pipeline.
@Suite struct ScriptedReplayTests {
    static let bargeIn = "conversation/barge_in.wav"
    /// Where the barge-in ("turn on the kitchen lights") begins in barge_in.wav: the detector's
    /// onset with no reply playing (`earshot vad --format segments`).
    static let bargeInOnset = 5.49

    @Test func theBargeInConversationReplaysIdenticallyTwice() async throws {
        let first = try await ConversationFixture.replay(Self.bargeIn, script: "conversation/barge_in.conversation.toml")
        let second = try await ConversationFixture.replay(Self.bargeIn, script: "conversation/barge_in.conversation.toml")
        #expect(first == second)
        #expect(first.contains(#""event":"speaker""#))
    }

    @Test func thePersonTalkingOverTheReplyPausesItThenStopsItAndTakesTheTurn() async throws {
        let log = try await ConversationFixture.replay(Self.bargeIn, script: "conversation/barge_in.conversation.toml")
        try Self.checkBargeIn(LoggedEvent.all(in: log))
    }

    /// The course of barge_in.wav's conversation, whatever the echo: reply 1 answers turn 1, the
    /// person's second request pauses it at its onset and stops it 300 ms later, becomes turn 2,
    /// and reply 2 answers it to its end.
    static func checkBargeIn(_ events: [LoggedEvent]) throws {
        let endOfTurn1 = try #require(events.firstIndex { $0.event == "speech" && $0.phase == "end" && $0.turn == 1 })
        let start1 = try #require(events.firstIndex { $0.isSpeaker("start", reply: 1) })
        #expect(start1 > endOfTurn1)
        #expect(events[start1].turn == 1)
        #expect(events[start1 + 1].state == "speaking", "the reply's start comes just before the speaking state it causes")

        let pause = try #require(events.firstIndex { $0.isSpeaker("pause", reply: 1) })
        // The pause waits for a pitch held 70 ms (desk sounds never pause a reply): ~0.3 s.
        #expect(events[pause].t >= bargeInOnset && events[pause].t <= bargeInOnset + 0.35, "paused at the onset: \(events[pause])")
        let stop = try #require(events.firstIndex { $0.isSpeaker("stop", reply: 1) })
        let heldFor = events[stop].t - events[pause].t
        #expect(heldFor >= 0.29 && heldFor <= 0.35, "stopped about 300 ms after the pause: \(heldFor)")
        #expect(events[stop].position == events[pause].position, "nothing played while paused")
        #expect(!events.contains { $0.isSpeaker("resume", reply: 1) || $0.isSpeaker("end", reply: 1) })

        let hearing2 = try #require(events.firstIndex { $0.state == "hearing" && $0.turn == 2 })
        #expect(events[hearing2].t == events[stop].t)
        let endOfTurn2 = try #require(events.firstIndex { $0.event == "speech" && $0.phase == "end" && $0.turn == 2 })
        let start2 = try #require(events.firstIndex { $0.isSpeaker("start", reply: 2) })
        #expect(endOfTurn2 > stop && start2 > endOfTurn2)
        #expect(events[start2].turn == 2)
        #expect(events[start2].fields["text"] as? String == "Okay, the kitchen lights are on.")
        let end2 = try #require(events.firstIndex { $0.isSpeaker("end", reply: 2) })
        #expect(events[end2 + 1].state == "listening")
        #expect(events.last?.state == "listening", "the replay ran on until the conversation was over")
    }

    /// The assistant's own voice, fed back into the microphone as loud as it was played, does
    /// not interrupt it: the reply plays to its end while the microphone hears it loudly.
    @Test func theEchoAloneNeverInterruptsTheReply() async throws {
        let log = try await ConversationFixture.replay(
            "speech/one_request_slt.wav", script: "conversation/lights_echo.conversation.toml", levels: true
        )
        let events = LoggedEvent.all(in: log)
        let speaker = events.filter { $0.event == "speaker" }.map { "\($0.phase ?? "") \($0.reply ?? 0)" }
        #expect(speaker == ["start 1", "end 1"])
        #expect(!events.contains { $0.state == "hearing" && $0.turn == 2 })
        let start = try #require(events.first { $0.isSpeaker("start", reply: 1) }).t
        let end = try #require(events.first { $0.isSpeaker("end", reply: 1) }).t
        let micDuringReply = events.filter { $0.event == "level" && $0.fields["source"] as? String == "mic" && $0.t > start + 0.2 && $0.t < end }
        let loudest = micDuringReply.compactMap { $0.fields["rms_dbfs"] as? Double }.max() ?? -100
        #expect(loudest > -30, "the echo reached the microphone: \(loudest) dBFS")
    }

    /// The person is still heard over the echo of the reply they interrupt.
    @Test func thePersonIsHeardOverTheEcho() async throws {
        let log = try await ConversationFixture.replay(Self.bargeIn, script: "conversation/barge_in_echo.conversation.toml")
        try Self.checkBargeIn(LoggedEvent.all(in: log))
    }

    /// An unprompted reply waits while the person is speaking and is said once the voice UI is
    /// listening again; the first turn, unanswered by the script, is declined.
    @Test func anUnpromptedReplyWaitsForListening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("late.conversation.toml")
        try #"[[reply]]\#nat = 1.5\#ntext = "Excuse me."\#n"#.write(to: script, atomically: true, encoding: .utf8)
        let log = try await ConversationFixture.replay("speech/one_request_slt.wav", script: script.path)
        let events = LoggedEvent.all(in: log)
        let listening = try #require(events.last { $0.state == "listening" && $0.turn == 1 && $0.t < 3.5 })
        let start = try #require(events.first { $0.isSpeaker("start", reply: 1) })
        #expect(start.t == listening.t, "said as soon as the turn was over: \(start) after \(listening)")
        #expect(start.turn == nil)
        #expect(events.contains { $0.isSpeaker("end", reply: 1) })
    }

    /// The echo gate assumes the loudest plausible coupling until it has heard the first reply
    /// long enough to know better; it learns fast at first, so a person whose words start
    /// 0.35 s into the session's first reply still interrupts it, with one pause and from
    /// their first word (learning at the usual pace, the reply stuttered four times and went on).
    @Test func aPersonTalkingEarlyInTheFirstReplyInterruptsIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("early.conversation.toml")
        try #"voice = "cove"\#n[[reply]]\#nat = 0.5\#ntext = "Good morning. Here is a long announcement that keeps going for quite a while."\#n"#
            .write(to: script, atomically: true, encoding: .utf8)
        let log = try await ConversationFixture.replay("speech/one_request_slt.wav", script: script.path)
        let events = LoggedEvent.all(in: log)
        let stop = try #require(events.first { $0.isSpeaker("stop", reply: 1) }, "the reply was never interrupted:\n\(log)")
        #expect(stop.t < 1.6, "interrupted late: \(stop)")
        #expect(events.contains { $0.state == "hearing" && $0.turn == 1 }, "\(log)")
        #expect(events.filter { $0.isSpeaker("pause", reply: 1) }.count == 1, "the reply stuttered:\n\(log)")
    }
}
