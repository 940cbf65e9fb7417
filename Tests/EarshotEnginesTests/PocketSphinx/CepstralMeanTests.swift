import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Testing

/// pocketsphinx normalises each utterance with the cepstral mean of the ones before it: a
/// decoder learns it from what it hears, and a decoder loaded again after the model was
/// released starts from it, not from pocketsphinx's initial guess.
extension EmbeddedTranscriberTests {
    static func means(_ text: String) -> [Double] {
        text.split(separator: ",").compactMap { Double($0) }
    }

    @Test func aDecoderLearnsTheCepstralMeanFromTheUtterancesItHears() async throws {
        let decoder = try PocketSphinxDecoder()
        let initialGuess = decoder.cepstralMean
        #expect(!decoder.hasLearntCepstralMean)
        let utterance = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        try decoder.beginUtterance()
        _ = try decoder.process(utterance.samples)
        let heard = try decoder.endUtterance()

        #expect(WordErrorRate.of(reference: utterance.text, hypothesis: heard) <= 0.2, "heard \"\(heard)\"")
        #expect(decoder.hasLearntCepstralMean)
        #expect(Self.means(decoder.cepstralMean).count == Self.means(initialGuess).count)
        #expect(Self.means(decoder.cepstralMean) != Self.means(initialGuess), "still \(initialGuess)")
    }

    @Test func aNewDecoderGivenTheLearntMeanHearsTheNextUtteranceAsTheOneThatLearntIt() async throws {
        let first = try await SpokenUtterance.speak("read my new messages", voice: .kal16)
        let second = try await SpokenUtterance.speak("set a timer for ten minutes", voice: .kal16)
        let learner = try PocketSphinxDecoder()
        try learner.beginUtterance()
        _ = try learner.process(first.samples)
        _ = try learner.endUtterance()
        let successor = try PocketSphinxDecoder()
        try successor.restoreCepstralMean(learner.cepstralMean)

        #expect(successor.hasLearntCepstralMean)
        for (learnt, restored) in zip(Self.means(learner.cepstralMean), Self.means(successor.cepstralMean)) {
            #expect(abs(learnt - restored) < 1e-3, "\(learner.cepstralMean) restored as \(successor.cepstralMean)")
        }
        var heard: [String] = []
        for decoder in [learner, successor] {
            try decoder.beginUtterance()
            _ = try decoder.process(second.samples)
            heard.append(try decoder.endUtterance())
        }
        #expect(heard[0] == heard[1])
    }

    @Test func theLearntMeanOutlivesTheModelsRelease() async throws {
        let (transcriber, log) = Self.idleTranscriber()
        #expect(await transcriber.learntCepstralMean() == nil, "nothing heard yet")
        let utterance = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        _ = try await transcriber.transcribe(utterance.audio, language: "en") { _ in }
        let learnt = try #require(await transcriber.learntCepstralMean())
        #expect(await eventually { log.lines.count == 2 }, "released after \(Self.shortIdle) idle")
        #expect(!transcriber.isLoaded)
        #expect(await transcriber.learntCepstralMean() == learnt, "kept while released")

        try await transcriber.prepare()
        #expect(transcriber.isLoaded)
        let reloaded = try #require(await transcriber.learntCepstralMean())
        for (before, after) in zip(Self.means(learnt), Self.means(reloaded)) {
            #expect(abs(before - after) < 1e-3, "\(learnt) reloaded as \(reloaded)")
        }
    }
}
