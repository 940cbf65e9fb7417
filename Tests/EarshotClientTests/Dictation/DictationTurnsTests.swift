import EarshotClient
import Testing

/// Which finals dictation types: once the turn has ended, never one the person went on from.
@Suite struct DictationTurnsTests {
    static func actions(_ inputs: [DictationTurns.Input]) -> [DictationTurns.Action] {
        var turns = DictationTurns()
        return inputs.map { turns.handle($0) }.filter { $0 != .none }
    }

    @Test func aFinalAfterTheEndIsTypedAtOnce() {
        #expect(Self.actions([.utteranceEnded(turn: 1), .finalTranscript(turn: 1, text: "hello")]) == [.type(turn: 1, text: "hello")])
    }

    @Test func aFinalAtTheEagerEndWaitsForTheEnd() {
        var turns = DictationTurns()
        #expect(turns.handle(.finalTranscript(turn: 1, text: "move my")) == .none)
        #expect(turns.handle(.utteranceEnded(turn: 1)) == .type(turn: 1, text: "move my"))
    }

    @Test func aResumedTurnIsDroppedAndTheWholeUtteranceTyped() {
        #expect(Self.actions([
            .finalTranscript(turn: 1, text: "move my dentist appointment"), .utteranceResumed(turn: 1),
            .finalTranscript(turn: 2, text: "move my dentist appointment next tuesday"), .utteranceEnded(turn: 2),
        ]) == [.type(turn: 2, text: "move my dentist appointment next tuesday")])
    }

    @Test func aCancelledTurnIsNeverTyped() {
        #expect(Self.actions([
            .finalTranscript(turn: 1, text: "oops"), .finalTranscript(turn: 2, text: "fine"), .utteranceEnded(turn: 2),
        ]) == [.type(turn: 2, text: "fine")])
    }

    @Test func anEmptyFinalTypesNothing() {
        #expect(Self.actions([.utteranceEnded(turn: 1), .finalTranscript(turn: 1, text: "")]) == [])
    }

    @Test func aLateFinalAfterLaterTurnsIsStillTyped() {
        // The transcriber was away for turn 1; its final arrives once it is back.
        #expect(Self.actions([
            .utteranceEnded(turn: 1), .utteranceEnded(turn: 2), .finalTranscript(turn: 2, text: "two"),
            .finalTranscript(turn: 1, text: "one"),
        ]) == [.type(turn: 2, text: "two"), .type(turn: 1, text: "one")])
    }

    @Test func voiceModeOffFinishesAndNothingFollows() {
        var turns = DictationTurns()
        #expect(turns.handle(.voiceModeOff) == .finish)
        #expect(turns.handle(.utteranceEnded(turn: 1)) == .none)
        #expect(turns.handle(.finalTranscript(turn: 1, text: "late")) == .none)
        #expect(turns.state == .finished)
    }

    @Test func oldTurnsAreForgotten() {
        var turns = DictationTurns()
        _ = turns.handle(.finalTranscript(turn: 1, text: "never ended"))
        _ = turns.handle(.utteranceEnded(turn: 30))
        #expect(turns.state == .dictating(held: [:], ended: [30]))
    }
}
