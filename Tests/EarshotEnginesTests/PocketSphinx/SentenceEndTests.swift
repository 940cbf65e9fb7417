import EarshotBase
import EarshotEngines
import EarshotSpeech
import Testing

/// The decoder's language model says how likely a sentence is to end after the words heard so
/// far; the endpointer waits longer where it is unlikely.
extension EmbeddedTranscriberTests {
    @Test(arguments: [
        ("turn the heating up to", "twenty one degrees"),
        ("write a note that says", "buy new batteries"),
        ("can you find the", "opening hours of the library"),
        ("pause the music and", "read my messages"),
    ])
    func aSentenceIsLessLikelyToEndMidwayThanAtItsEnd(midway: String, end: String) throws {
        let decoder = try PocketSphinxDecoder()
        let atPause = try #require(decoder.sentenceEnd(after: midway))
        let atEnd = try #require(decoder.sentenceEnd(after: end))
        #expect(atPause < -1.25, "\(midway): \(atPause)")
        #expect(atEnd > -1.25, "\(end): \(atEnd)")
    }

    @Test func nothingHeardHasNoSentenceEnd() throws {
        #expect(try PocketSphinxDecoder().sentenceEnd(after: "") == nil)
    }

    @Test func theEmbeddedTranscribersPartialsCarryTheSentenceEnd() async throws {
        let utterance = try await SpokenUtterance.speak("please set the oven to", voice: .slt)
        let audio = UtteranceAudio()
        for chunk in utterance.chunks { audio.append(chunk) }
        audio.finish()
        let partials = Locked<[PartialTranscript]>([])
        _ = try await Self.transcriber.transcribe(audio, language: "en") { partial in partials.withLock { $0.append(partial) } }
        let heard = partials.withLock { $0 }
        #expect(!heard.isEmpty)
        #expect(heard.allSatisfy { $0.sentenceEnd != nil }, "\(heard)")
    }
}
