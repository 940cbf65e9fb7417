import EarshotTestSupport
import Foundation
import Testing

/// `earshot replay --wake`, as a person runs it: the built binary, real pocketsphinx.
@Suite(.tags(.live)) struct WakeReplayCLITests {
    /// 1 s of silence, "hey computer" (to 1.73 s), "turn on the kitchen lights" (flite slt).
    static let recording = ConversationFixture.path("speech/wake_request_slt.wav")

    @Test func thePhraseWakesItAndTheRequestIsTheFirstTurnIdenticallyTwice() throws {
        let arguments = ["replay", "--wake", "hey computer", "--stt", "embedded", Self.recording]
        let first = try BuiltProduct.run("earshot", arguments)
        let second = try BuiltProduct.run("earshot", arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let events = LoggedEvent.all(in: first.stdoutText)
        #expect(events.first { $0.event == "state" && $0.fields["state"] as? String == "listening" }?.fields["waiting_for"] as? String == "hey computer")
        let wake = try #require(events.first { $0.event == "wake" }, "\(first.stdoutText)")
        #expect(wake.fields["phrase"] as? String == "hey computer")
        let t = wake.t
        #expect(t > 1.2 && t < 2.1, "decided near the end of the phrase: \(t)")
        let start = try #require(events.first { $0.event == "speech" && $0.fields["phase"] as? String == "start" })
        #expect(start.fields["turn"] as? Int == 1)
        let audioStart = try #require(start.fields["audio_start"] as? Double)
        #expect(audioStart >= t - 0.005, "the request's audio starts after the phrase")
        let final = events.first { $0.event == "transcript" && $0.fields["final"] as? Bool == true }
        let text = final?.fields["text"] as? String
        #expect(text?.contains("kitchen") == true, "\(first.stdoutText)")
    }

    @Test func withoutThePhraseNothingWakesIt() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--wake", "hey computer", ConversationFixture.path("speech/two_requests_slt.wav")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdoutText.contains(#""event":"wake""#))
        #expect(!result.stdoutText.contains(#""event":"speech""#))
    }

    @Test func aPhraseItCannotPronounceIsRefusedInWords() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--wake", "hey florbnax", Self.recording])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--wake: the wake phrase \"hey florbnax\" has \"florbnax\""), "\(result.stderr)")
    }
}
