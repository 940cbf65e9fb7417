import EarshotTestSupport
import Foundation
import Testing

/// A pause in the middle of a sentence is not the end of the turn: with the transcript so far
/// ending on "to", `earshot replay --stt embedded` holds the turn through a 1.13 s pause that
/// ends it when no words are heard.
@Suite(.tags(.live)) struct MidSentencePauseReplayTests {
    static let recording = ConversationFixture.path("endpointer/mid_sentence_pause.wav")

    static func speechEnds(_ log: String) -> [LoggedEvent] {
        LoggedEvent.all(in: log).filter { $0.event == "speech" && $0.fields["phase"] as? String == "end" }
    }

    @Test func theWordsHoldTheTurnThroughThePause() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.recording])
        #expect(result.status == 0, "\(result.stderr)")
        let ends = Self.speechEnds(result.stdoutText)
        #expect(ends.count == 1, "\(ends)")
        let finals = LoggedEvent.all(in: result.stdoutText).filter { $0.event == "transcript" && $0.fields["final"] as? Bool == true }
        let text = try #require(finals.last?.fields["text"] as? String)
        #expect(text.hasPrefix("move my dentist appointment") && text.hasSuffix("tuesday"), "\(finals)")
    }

    /// The pause is an eager end: the words so far are finalised as turn 1, then the person goes
    /// on, and the utterance, whole, is turn 2: its final has the words from before the pause too.
    @Test func theResumedTurnIsTranscribedWhole() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.recording])
        #expect(result.status == 0, "\(result.stderr)")
        let events = LoggedEvent.all(in: result.stdoutText).filter { $0.event == "speech" || $0.fields["final"] as? Bool == true }
        let sequence = events.map { event in
            "\(event.fields["phase"] as? String ?? "final") \(event.fields["turn"] as? Int ?? -1)"
        }
        #expect(sequence == ["start 1", "eager_end 1", "final 1", "resumed 1", "eager_end 2", "final 2", "end 2"], "\(sequence)")
        let before = try #require(events[2].fields["text"] as? String)
        let whole = try #require(events[5].fields["text"] as? String)
        #expect(before.hasPrefix("move my dentist appointment") && !before.contains("tuesday"), "\(before)")
        #expect(whole.hasPrefix(before) && whole.hasSuffix("tuesday"), "\(whole)")
    }

    @Test func withoutWordsTheSamePauseEndsTheTurn() throws {
        let result = try BuiltProduct.run("earshot", ["replay", Self.recording])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.speechEnds(result.stdoutText).count == 2)
    }

    @Test func theReplayIsIdenticalRunToRun() throws {
        let first = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.recording])
        let second = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.recording])
        #expect(first.stdout == second.stdout)
    }
}
