@testable import EarshotAudio
import Testing

/// How sure the words are that a sentence ended, beside how the turn sounded: words the language
/// model ends sentences on end a turn sooner than words that merely can end one, and a word or
/// two said alone is judged as a command, whatever the recogniser made of it.
@Suite struct EndpointerSentenceEndTests {
    /// Speech from frame 0 for `speech` frames with `pitch(frame)` Hz (no pitch: no cues at all),
    /// then silence; `words` heard at frame `speech - 5` with the sentence's end `sentenceEnd`.
    static func end(
        speech: Int, pitch: ((Int) -> Float)? = nil, words: String?, sentenceEnd: Double? = nil
    ) -> (silence: Int, reason: Endpointer.EndReason)? {
        var endpointer = Endpointer()
        for activity in EndpointerScript.activities("\(speech)# 300-") {
            let cues = pitch.map { pitch in
                activity.isSpeech
                    ? SpeechCues(periodicity: 0.9, pitchHz: pitch(activity.frameIndex), levelDB: -20)
                    : SpeechCues(periodicity: 0, pitchHz: 0, levelDB: -60)
            }
            let cued = VoiceActivity(frameIndex: activity.frameIndex, probability: activity.probability, isSpeech: activity.isSpeech, cues: cues)
            if case .speechEnded(_, let endFrame, let reason) = endpointer.process(cued) {
                return (activity.frameIndex - endFrame + 1, reason)
            }
            if let words, activity.frameIndex == speech - 5 { endpointer.heard(words, sentenceEnd: sentenceEnd) }
        }
        return nil
    }

    /// 140 Hz rising to about 185 Hz over 40 frames: a short answer said as a question.
    static func rising(_ frame: Int) -> Float { 140 + Float(frame) * 1.2 }
    /// 160 Hz falling to about 140 Hz over 40 frames, too little for a final fall.
    static func falling(_ frame: Int) -> Float { 160 - Float(frame) * 0.5 }

    @Test func wordsTheLanguageModelEndsSentencesOnEndTheTurnSoonerThanWordsThatMerelyCan() throws {
        let configuration = Endpointer.Configuration()
        let likely = try #require(Self.end(speech: 100, words: "buy new batteries", sentenceEnd: -0.63))
        #expect(likely.reason == .finished)
        #expect(likely.silence == Int((Float(configuration.endOfTurnSilenceFrames) * 0.75).rounded()))
        let possible = try #require(Self.end(speech: 100, words: "six thirty", sentenceEnd: -1.11))
        #expect(possible.reason == .finished)
        #expect(possible.silence == configuration.finishedTurnSilenceFrames * 2)
    }

    @Test func aRiseAfterWordsTheLanguageModelEndsSentencesOnIsAQuestionsEnd() throws {
        let configuration = Endpointer.Configuration()
        let question = try #require(Self.end(speech: 100, pitch: { 130 + Float($0) * 0.4 }, words: "is it open on saturday", sentenceEnd: -0.6))
        #expect(question == (configuration.finishedTurnSilenceFrames, .finished))
        let open = try #require(Self.end(speech: 100, pitch: { 130 + Float($0) * 0.4 }, words: "is it open on saturday", sentenceEnd: -1.0))
        #expect(open == (Int((Float(configuration.endOfTurnSilenceFrames) * 0.75).rounded()), .silence))
    }

    @Test func aShortAnswerThatRoseEndsAsACommandOnceItIsHeardAsWords() throws {
        let configuration = Endpointer.Configuration()
        let heard = try #require(Self.end(speech: 40, pitch: Self.rising, words: "no"))
        #expect(heard == (configuration.finishedTurnSilenceFrames, .finished))
        // Unheard, a short rising sound may be a cough: its sound alone judges it.
        let unheard = try #require(Self.end(speech: 40, pitch: Self.rising, words: nil))
        #expect(unheard == (configuration.endOfTurnSilenceFrames, .silence))
    }

    /// "cancel" heard as "and so on": a word or two said alone is seldom a sentence left hanging,
    /// so such words say nothing and the sound alone judges it, as with no words at all.
    @Test func aShortCommandHeardAsWordsNoSentenceEndsOnIsJudgedByItsSoundAlone() throws {
        let configuration = Endpointer.Configuration()
        let unheard = try #require(Self.end(speech: 40, pitch: Self.falling, words: nil))
        #expect(unheard.reason == .finished && unheard.silence < configuration.endOfTurnSilenceFrames, "\(unheard)")
        for words in ["and so on", "the", "for a"] {
            let command = try #require(Self.end(speech: 40, pitch: Self.falling, words: words))
            #expect(command == unheard, "\(words)")
        }
        // A short rise heard as such words may be a cough's: it waits the end-of-turn silence.
        let rise = try #require(Self.end(speech: 40, pitch: Self.rising, words: "the"))
        #expect(rise == (configuration.endOfTurnSilenceFrames, .silence))
        let sentence = try #require(Self.end(speech: 100, pitch: Self.falling, words: "set the oven to"))
        #expect(sentence == (configuration.maximumEndSilenceFrames, .unfinished))
    }

    /// "is the post office open on saturday" heard as "… on saturday i": a sentence that rose to
    /// words no sentence ends on is more often a question misheard than a pause inside it.
    @Test func aSentenceThatRoseToWordsNoSentenceEndsOnWaitsOnlyTheEndOfTurnSilence() throws {
        let configuration = Endpointer.Configuration()
        let question = try #require(Self.end(speech: 100, pitch: { 130 + Float($0) * 0.4 }, words: "open on saturday i"))
        #expect(question == (configuration.endOfTurnSilenceFrames, .unfinished))
        let level = try #require(Self.end(speech: 100, pitch: { _ in 150 }, words: "open on saturday i"))
        #expect(level.silence > configuration.endOfTurnSilenceFrames && level.reason == .unfinished, "\(level)")
    }
}
