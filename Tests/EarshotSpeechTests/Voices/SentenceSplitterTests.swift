import EarshotSpeech
import Testing

@Suite struct SentenceSplitterTests {
    @Test(arguments: SentenceSplitterCase.table)
    func wholeText(_ row: SentenceSplitterCase) {
        #expect(SentenceSplitter.split(row.text) == row.pieces)
    }

    @Test(arguments: SentenceSplitterCase.table)
    func oneCharacterAtATime(_ row: SentenceSplitterCase) {
        var splitter = SentenceSplitter()
        var pieces: [String] = []
        for character in row.text { pieces += splitter.append(String(character)) }
        pieces += splitter.finish()
        #expect(pieces == row.pieces)
    }

    @Test(arguments: SentenceSplitterCase.table)
    func wordLikeTokens(_ row: SentenceSplitterCase) {
        // Tokens as a language model streams them: a word with its leading space, punctuation apart.
        var tokens: [String] = []
        var current = ""
        for character in row.text {
            if character == " " || character.isPunctuation || character.isNewline, !current.isEmpty {
                tokens.append(current)
                current = ""
            }
            current.append(character)
        }
        tokens.append(current)
        var splitter = SentenceSplitter()
        let pieces = tokens.flatMap { splitter.append($0) } + splitter.finish()
        #expect(pieces == row.pieces)
    }

    @Test func sentencesArriveAsSoonAsTheNextWordStarts() {
        var splitter = SentenceSplitter()
        #expect(splitter.append("Hello there.") == [])
        #expect(splitter.append(" ") == [])
        #expect(splitter.append("H") == ["Hello there."])
        #expect(splitter.append("ow are you?\n") == ["How are you?"])
        #expect(splitter.append("Dr.") == [])
        #expect(splitter.append(" Who") == [])
        #expect(splitter.finish() == ["Dr. Who"])
    }

    @Test func aLineBreakCompletesAtOnce() {
        var splitter = SentenceSplitter()
        #expect(splitter.append("No period here") == [])
        #expect(splitter.append("\n") == ["No period here"])
        #expect(splitter.finish() == [])
    }

    @Test func finishStartsOver() {
        var splitter = SentenceSplitter()
        _ = splitter.append("Left over")
        #expect(splitter.finish() == ["Left over"])
        #expect(splitter.append("Fresh. Start") == ["Fresh."])
        #expect(splitter.finish() == ["Start"])
    }

    @Test func noPieceExceedsTheLimitWhenBreaksExist() {
        let clause = "a clause of several words, "
        let text = String(repeating: clause, count: 40) + "done."
        let pieces = SentenceSplitter.split(text, maximumLength: 120)
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.count <= 120 }, "\(pieces.map(\.count))")
        #expect(pieces.joined(separator: " ") == text.trimmingCharacters(in: " "))
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
