import EarshotClient
import Testing

/// What dictation types for a run of transcripts: spacing, capitals, and the spoken commands.
@Suite struct DictationTextTests {
    /// The window's text after typing `transcripts`, applying the steps as a text field does.
    static func window(after transcripts: [String]) -> String {
        var text = DictationText()
        var window: [Character] = []
        for transcript in transcripts {
            for step in text.type(transcript) {
                switch step {
                case .text(let characters): window += characters
                case .newLine: window.append("\n")
                case .erase(let count): window.removeLast(min(count, window.count))
                }
            }
        }
        return String(window)
    }

    @Test func turnsAreJoinedWithASpaceAndTheFirstLetterIsCapitalised() {
        #expect(Self.window(after: ["turn on the kitchen lights", "and the oven"]) == "Turn on the kitchen lights and the oven")
    }

    @Test func aSentenceStartsAfterItsEndingPunctuation() {
        #expect(Self.window(after: ["hello there.", "how are you? fine"]) == "Hello there. How are you? Fine")
        #expect(Self.window(after: ["wait", ", then go"]) == "Wait, then go")
    }

    @Test func thePronounIIsCapitalised() {
        #expect(Self.window(after: ["yes i think i'm done"]) == "Yes I think I'm done")
    }

    @Test func newLineAndNewParagraphBreakLinesAndStartSentences() {
        #expect(Self.window(after: ["dear bob new line thanks for the tea new paragraph see you"])
            == "Dear bob\nThanks for the tea\n\nSee you")
        #expect(Self.window(after: ["dear bob", "new line", "thanks"]) == "Dear bob\nThanks")
        #expect(Self.window(after: ["one", "New line.", "two"]) == "One\nTwo")
    }

    @Test func linesAreTypedWithReturnNotAsCharacters() {
        var text = DictationText()
        #expect(text.type("a new line b") == [.text("A"), .newLine, .text("B")])
    }

    @Test func scratchThatAloneRemovesThePreviousTurnWithBackspaces() {
        var text = DictationText()
        _ = text.type("hello world")
        #expect(text.type("and more") == [.text(" and more")])
        #expect(text.type("scratch that") == [.erase(9)])
        #expect(text.type("scratch that") == [.erase(11)])
        #expect(text.state == .atStart)
        #expect(text.type("scratch that") == [])
        #expect(text.type("again") == [.text("Again")])
    }

    @Test func scratchThatWithinATurnDropsTheWordsBeforeIt() {
        #expect(Self.window(after: ["hello", "buy milk scratch that buy bread"]) == "Hello buy bread")
        #expect(Self.window(after: ["hello", "scratch that goodbye"]) == "Goodbye")
    }

    @Test func aScratchedLineBreakIsOneBackspace() {
        var text = DictationText()
        _ = text.type("one")
        _ = text.type("new paragraph")
        #expect(text.type("scratch that") == [.erase(2)])
        #expect(text.type("two") == [.text(" two")])
    }

    @Test func commandWordsInsideOtherWordsAreTypedAsWords() {
        #expect(Self.window(after: ["the new lineup", "scratch thatch"]) == "The new lineup scratch thatch")
    }

    @Test func nonASCIITextIsKeptAsSpokenAndCountedByCharacter() {
        var text = DictationText()
        #expect(text.type("élan vital, naïve café") == [.text("Élan vital, naïve café")])
        #expect(text.type("scratch that") == [.erase(22)])
    }

    @Test func anEmptyTranscriptTypesNothing() {
        var text = DictationText()
        #expect(text.type("   ") == [])
        #expect(text.state == .atStart)
    }

    @Test func onlyTheNewestTurnsCanBeScratched() {
        var text = DictationText()
        for index in 0..<(DictationText.rememberedTurns + 5) { _ = text.type("w\(index)") }
        for _ in 0..<DictationText.rememberedTurns { #expect(text.type("scratch that") != []) }
        #expect(text.type("scratch that") == [])
    }
}
