import EarshotTestSupport
import Foundation
import Testing

/// `earshot replay` with a conversation script, as a person runs it: the built binary.
@Suite(.tags(.live)) struct ScriptedReplayCLITests {
    static let recording = ConversationFixture.path("conversation/barge_in.wav")

    @Test func theBargeInFixtureWithEmbeddedTranscriptionReplaysIdenticallyTwice() throws {
        let first = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.recording])
        let second = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.recording])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let events = LoggedEvent.all(in: first.stdoutText)
        let finals = events.filter { $0.event == "transcript" && $0.fields["final"] as? Bool == true }
        #expect(finals.map { $0.fields["text"] as? String } == ["what is the weather like tomorrow", "turn on the kitchen lights"])
        try ScriptedReplayTests.checkBargeIn(events)
        // The reply answers the transcript: it starts its delay (250 ms) after the final one.
        let final1 = try #require(finals.first)
        let start1 = try #require(events.first { $0.isSpeaker("start", reply: 1) })
        #expect(abs(start1.t - final1.t - 0.25) < 0.005, "\(final1) then \(start1)")
    }

    @Test func withoutTranscriptionTheSameConversationReplaysIdenticallyTwice() throws {
        let first = try BuiltProduct.run("earshot", ["replay", "--levels", Self.recording])
        let second = try BuiltProduct.run("earshot", ["replay", "--levels", Self.recording])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        #expect(!first.stdoutText.contains(#""event":"transcript""#))
        #expect(first.stdoutText.contains(#""source":"speaker""#), "the speaker's levels while it plays")
        try ScriptedReplayTests.checkBargeIn(LoggedEvent.all(in: first.stdoutText))
    }

    @Test func noScriptReplaysTheRecordingAlone() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--no-script", Self.recording])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdoutText.contains(#""event":"speaker""#))
        #expect(result.stdoutText.contains(#""state":"hearing","turn":2"#), "the second request is a turn of its own")
    }

    @Test func aBrokenScriptIsRefusedWithFileLineAndKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-cli-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("broken.conversation.toml").path
        try "[[reply]]\nafter_turn = 1\ntext = \"Hi.\"\n\n[[reply]]\nafter_turn = \"two\"\ntext = \"Again.\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let result = try BuiltProduct.run("earshot", ["replay", "--script", script, Self.recording])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(script):6: reply 2: `after_turn` must be the number of the person's turn it answers, from 1 up, not a string\n")
    }
}
