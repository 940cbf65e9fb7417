import EarshotSpeech
import Testing

@Suite struct SentenceSplitterClauseTests {
    static let long = "Tomorrow will be sunny and warm in the morning, with a high of twenty four degrees, and a light breeze"

    @Test func aLongSentenceStillBeingWrittenGivesUpItsFirstClauses() {
        var splitter = SentenceSplitter()
        #expect(splitter.append(Self.long).isEmpty)
        #expect(splitter.takeClause(minimumLength: 200) == nil, "not long enough yet")
        #expect(splitter.takeClause(minimumLength: 60) == "Tomorrow will be sunny and warm in the morning, with a high of twenty four degrees,")
        #expect(splitter.takeClause(minimumLength: 60) == nil)
        #expect(splitter.append(" from the west. Then rain.") == ["and a light breeze from the west."])
        #expect(splitter.finish() == ["Then rain."])
    }

    @Test func aShortOrUnbrokenSentenceIsLeftWhole() {
        var splitter = SentenceSplitter()
        _ = splitter.append("Well, yes")
        #expect(splitter.takeClause(minimumLength: 60) == nil)
        _ = splitter.append(" and the rest of this sentence runs on and on without a single break at all")
        #expect(splitter.takeClause(minimumLength: 60) == nil, "the only break is too early: its clause would be two words")
        #expect(splitter.finish().count == 1)
    }

    /// A first token that ends in a comma ("Sure,") is a clause at once; a comma after a digit
    /// waits, as "3," may be "3,000".
    @Test func aMarkLastAfterAWordEndsAClauseAfterADigitItWaits() {
        var splitter = SentenceSplitter()
        #expect(splitter.append("Sure,").isEmpty)
        #expect(splitter.takeClause(minimumLength: 1) == "Sure,")
        #expect(splitter.append(" it costs 3,").isEmpty)
        #expect(splitter.takeClause(minimumLength: 1) == nil)
        _ = splitter.append("000 euros.")
        #expect(splitter.finish() == ["it costs 3,000 euros."])
    }
}
