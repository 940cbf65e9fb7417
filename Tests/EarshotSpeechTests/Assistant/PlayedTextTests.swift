import EarshotSpeech
import Testing

@Suite struct PlayedTextTests {
    /// Two sentences: 0–16 000 samples (1 s) and 16 000–48 000 (2 s, eight words).
    static var reply: PlayedText {
        var played = PlayedText()
        played.add("It is sunny today.", start: 0, end: 8_000)
        played.extendLast(to: 16_000)
        played.add("Tomorrow brings rain in the north and wind.", start: 16_000, end: 48_000)
        return played
    }

    @Test func aReplyPlayedOutWasHeardWhole() {
        #expect(Self.reply.all == "It is sunny today. Tomorrow brings rain in the north and wind.")
        #expect(Self.reply.heard(upTo: 48_000) == Self.reply.all)
    }

    @Test func aReplyStoppedMidSentenceKeepsTheWordsItsAudioCovered() {
        #expect(Self.reply.heard(upTo: 0).isEmpty)
        #expect(Self.reply.heard(upTo: 8_000) == "It is")
        #expect(Self.reply.heard(upTo: 16_000) == "It is sunny today.")
        // Half of the second sentence's audio: four of its eight words.
        #expect(Self.reply.heard(upTo: 32_000) == "It is sunny today. Tomorrow brings rain in")
    }
}
