import EarshotEngines
import EarshotSpeech
import Testing

/// pocketsphinx's keyphrase search on flite's voice: the phrase is heard, other speech is not,
/// and a phrase it cannot pronounce is refused in words.
@Suite struct KeyphraseSpotterTests {
    static func spotter(_ phrase: String = "hey computer") throws -> KeyphraseSpotter {
        try KeyphraseSpotter(try PronouncedWakePhrase(try WakePhrase(phrase)))
    }

    /// Feeds `utterance` 10 ms at a time; the chunk index at which the phrase was heard.
    static func heardAt(_ utterance: SpokenUtterance, by spotter: KeyphraseSpotter) throws -> Int? {
        try spotter.beginSpeech()
        defer { spotter.endSpeech() }
        for (index, chunk) in utterance.chunks.enumerated() {
            if try spotter.hears(chunk) { return index }
        }
        return nil
    }

    @Test func hearsThePhraseNearItsEnd() async throws {
        let spotter = try Self.spotter()
        let utterance = try await SpokenUtterance.speak("hey computer", voice: .slt)
        let heard = try #require(try Self.heardAt(utterance, by: spotter))
        // The phrase ends 0.2 s before the utterance does (its trailing noise).
        let endOfPhrase = utterance.duration - 0.2
        #expect(Double(heard + 1) * 0.01 > 0.3 + 0.2, "not before most of the phrase was said")
        #expect(Double(heard + 1) * 0.01 < endOfPhrase + 0.5)
    }

    @Test func otherSpeechDoesNotWakeIt() async throws {
        let spotter = try Self.spotter()
        for text in ["turn on the kitchen lights", "what is the weather like today"] {
            let utterance = try await SpokenUtterance.speak(text, voice: .slt)
            #expect(try Self.heardAt(utterance, by: spotter) == nil, "woke on \"\(text)\"")
        }
    }

    /// Feeds the whole stretch, then closes it: whether either pass heard the phrase.
    static func heardByTheEnd(_ utterance: SpokenUtterance, by spotter: KeyphraseSpotter) throws -> Bool {
        if try heardAtOrNil(utterance, by: spotter) { return true }
        return try spotter.closeSpeech()
    }

    private static func heardAtOrNil(_ utterance: SpokenUtterance, by spotter: KeyphraseSpotter) throws -> Bool {
        try spotter.beginSpeech()
        for chunk in utterance.chunks where try spotter.hears(chunk) { return true }
        return false
    }

    @Test func thePhraseInNoiseIsHeardByTheEndOfTheStretch() async throws {
        let spotter = try Self.spotter()
        let utterance = try await SpokenUtterance.speak("hey computer", voice: .slt).inNoise(snr: 15)
        #expect(try Self.heardByTheEnd(utterance, by: spotter))
    }

    @Test func otherSpeechInNoiseDoesNotWakeItByTheEndOfTheStretch() async throws {
        let spotter = try Self.spotter()
        for text in ["turn on the kitchen lights", "what is the weather like today"] {
            let utterance = try await SpokenUtterance.speak(text, voice: .slt).inNoise(snr: 15)
            #expect(try !Self.heardByTheEnd(utterance, by: spotter), "woke on \"\(text)\"")
        }
    }

    @Test func aWordTheTranscribersDictionaryLacksIsPronouncedFromTheFullOne() throws {
        // "cousteau" is in CMU's full dictionary only.
        let pronounced = try PronouncedWakePhrase(try WakePhrase("Hey Cousteau"))
        #expect(pronounced.phrase.words == ["hey", "cousteau"])
        #expect(pronounced.pronunciations.count == 2)
        _ = try KeyphraseSpotter(pronounced)
    }

    @Test func aPhraseItCannotPronounceIsRefusedInWords() throws {
        let error = try #require(throws: SpeechError.self) { try PronouncedWakePhrase(try WakePhrase("hey florbnax")) }
        #expect(error.message.contains("\"florbnax\""))
        #expect(error.message.contains("cannot pronounce"))
    }

    @Test func anEmptyPhraseOrOneOfSymbolsIsRefusedInWords() throws {
        let empty = try #require(throws: SpeechError.self) { try WakePhrase("   ") }
        #expect(empty.message.contains("empty"))
        let digits = try #require(throws: SpeechError.self) { try WakePhrase("hey R2D2") }
        #expect(digits.message.contains("r2d2"))
    }
}
