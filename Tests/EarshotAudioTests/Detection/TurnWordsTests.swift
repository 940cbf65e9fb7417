@testable import EarshotAudio
import Testing

/// The word rule: a transcript so far that ends on a word a sentence cannot end on is unfinished.
@Suite struct TurnWordsTests {
    static let english = TurnWordRule(TurnWords.forLanguage("en-US")!)

    @Test(arguments: [
        ("set the oven to", TurnWording.unfinished),
        ("set the oven to two hundred degrees", .complete),
        ("what is the", .unfinished),
        ("add bread and", .unfinished),
        ("text paul that i will be", .unfinished),
        ("how long should i", .unfinished),
        ("so um", .unfinished),
        ("play the news", .complete),
        ("cancel", .complete),
        ("Book a taxi TO", .unfinished),
        ("who wrote the(2)", .unfinished),
        ("turn on the fan.", .complete),
        ("", .unheard),
        ("   ", .unheard),
    ])
    func lastWordDecides(transcript: String, wording: TurnWording) {
        #expect(Self.english.wording(of: transcript) == wording)
    }

    @Test(arguments: [
        ("write a note that says", Double?(-1.31), TurnWording.unlikelyEnd),
        ("buy new batteries", -0.63, .likelyEnd),
        ("six thirty", -1.11, .complete),
        ("set the oven to", -0.2, .unfinished),
        ("play the news", nil, .complete),
    ])
    func theLanguageModelsSentenceEndJudgesWordsThatCanEndOne(transcript: String, sentenceEnd: Double?, wording: TurnWording) {
        #expect(Self.english.wording(of: transcript, sentenceEnd: sentenceEnd) == wording)
    }

    @Test func languagesAreChosenByTheirPrimarySubtag() {
        #expect(TurnWords.forLanguage("en-GB") == TurnWords.forLanguage("en"))
        #expect(TurnWords.forLanguage("en_US") == TurnWords.forLanguage("en"))
        #expect(TurnWords.forLanguage("de-DE") == nil)
    }

    @Test func everyClassOfTheEnglishListIsFilled() throws {
        let words = try #require(TurnWords.languages["en"])
        for name in ["article", "preposition", "conjunction", "auxiliary", "filled pause"] {
            #expect(!(words.classes[name] ?? []).isEmpty, "\(name)")
        }
    }
}

/// The endpointer judges a pause with the words heard so far: unfinished words hold the turn
/// through a long pause, finished ones end it soon, and words heard during the silence judge it
/// again. Verdicts carry no pitch here, so the sound alone is always unsure.
@Suite struct EndpointerWordsTests {
    /// Speech from frame 0 to 99, then `silence` frames; `words` is heard after frame `heardAt`.
    static func end(
        silence: Int, words: [(heardAt: Int, text: String)], then resumed: Int = 0,
        configuration: Endpointer.Configuration = .init()
    ) -> (frame: Int, event: Endpointer.Event)? {
        end(silence: silence, reaching: words.map { ($0.heardAt, $0.text, nil) }, then: resumed, configuration: configuration)
    }

    /// As `end(silence:words:…)`, each transcript accounting for the audio through frame `through`.
    static func end(
        silence: Int, reaching words: [(heardAt: Int, text: String, through: Int?)], then resumed: Int = 0,
        configuration: Endpointer.Configuration = .init()
    ) -> (frame: Int, event: Endpointer.Event)? {
        var endpointer = Endpointer(configuration: configuration)
        let activities = EndpointerScript.activities("100# \(silence)-" + (resumed > 0 ? " \(resumed)# 300-" : ""))
        for activity in activities {
            if let event = endpointer.process(activity), case .speechEnded = event { return (activity.frameIndex, event) }
            for heard in words where heard.heardAt == activity.frameIndex { endpointer.heard(heard.text, throughFrame: heard.through) }
        }
        return nil
    }

    @Test func unfinishedWordsHoldTheTurnThroughAPauseLongerThanTheEndOfTurnSilence() throws {
        let held = Self.end(silence: 120, words: [(50, "set the oven to")], then: 80)
        let ended = try #require(held)
        #expect(ended.frame >= 100 + 120 + 80, "ended at the pause: \(ended)")
        if case .speechEnded(let onset, let end, _) = ended.event {
            #expect(onset == 0 && end == 300)
        }
    }

    @Test func wordsASentenceSeldomEndsOnWaitTheLongestSilence() throws {
        let configuration = Endpointer.Configuration()
        var endpointer = Endpointer(configuration: configuration)
        var ended: (frame: Int, event: Endpointer.Event)?
        for activity in EndpointerScript.activities("100# 400-") where ended == nil {
            if let event = endpointer.process(activity), case .speechEnded = event { ended = (activity.frameIndex, event) }
            if activity.frameIndex == 50 { endpointer.heard("write a note that says", sentenceEnd: -1.31) }
        }
        let end = try #require(ended)
        #expect(end.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .unfinished))
        #expect(end.frame - 99 == configuration.maximumEndSilenceFrames)
    }

    @Test func unfinishedWordsEndTheTurnAfterTheLongestSilence() throws {
        let configuration = Endpointer.Configuration()
        let ended = try #require(Self.end(silence: 400, words: [(50, "set the oven to")]))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .unfinished))
        #expect(ended.frame - 99 == configuration.maximumEndSilenceFrames)
    }

    @Test func finishedWordsEndTheTurnSoonerThanTheEndOfTurnSilence() throws {
        let configuration = Endpointer.Configuration()
        let ended = try #require(Self.end(silence: 200, words: [(90, "set the oven to two hundred degrees")]))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .finished))
        #expect(ended.frame - 99 < configuration.endOfTurnSilenceFrames)
    }

    /// Words that can end a sentence said on a held pitch (or a rise): the sound is not sure of
    /// the end, the words are, and the turn ends after three quarters of the end-of-turn silence.
    @Test func finishedWordsOnAHeldPitchEndTheTurnAfterThreeQuartersOfTheEndOfTurnSilence() throws {
        let configuration = Endpointer.Configuration()
        var endpointer = Endpointer(configuration: configuration)
        var ended: (frame: Int, event: Endpointer.Event)?
        let held = SpeechCues(periodicity: 0.9, pitchHz: 150, levelDB: -20)
        for activity in EndpointerScript.activities("100# 200-") where ended == nil {
            let cued = VoiceActivity(
                frameIndex: activity.frameIndex, probability: activity.probability, isSpeech: activity.isSpeech,
                cues: activity.isSpeech ? held : SpeechCues(periodicity: 0, pitchHz: 0, levelDB: -60)
            )
            if let event = endpointer.process(cued), case .speechEnded = event { ended = (activity.frameIndex, event) }
            if activity.frameIndex == 90 { endpointer.heard("play the news") }
        }
        let end = try #require(ended)
        #expect(end.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .silence))
        #expect(end.frame - 99 == Int((Float(configuration.endOfTurnSilenceFrames) * 0.75).rounded()))
    }

    @Test func withoutWordsTheEndOfTurnSilenceEndsTheTurn() throws {
        let configuration = Endpointer.Configuration()
        let ended = try #require(Self.end(silence: 200, words: []))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .silence))
        #expect(ended.frame - 99 == configuration.endOfTurnSilenceFrames)
    }

    @Test func wordsHeardDuringTheSilenceJudgeItAgain() throws {
        // The decoder settles on the last word a few frames into the pause.
        let late = try #require(Self.end(silence: 120, words: [(50, "set the oven"), (104, "set the oven to")], then: 80))
        #expect(late.frame >= 300, "ended at the pause: \(late)")
        let finished = try #require(Self.end(silence: 200, words: [(50, "set the oven to"), (95, "set the oven to two")]))
        #expect(finished.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .finished))
    }

    @Test func aSilenceHeardAsUnfinishedStaysSoThroughTheRecognisersFlicker() throws {
        let held = try #require(Self.end(silence: 120, words: [(104, "set the oven to"), (110, "set the oven two")], then: 80))
        #expect(held.frame >= 300, "ended at the pause: \(held)")
    }

    /// A transcriber running behind the microphone: its words at the pause end short of it.
    @Test func wordsFromBeforeThePauseGiveWayToWordsThatReachIt() throws {
        let configuration = Endpointer.Configuration()
        let ended = try #require(Self.end(silence: 400, reaching: [
            (50, "set the oven to", 40), (112, "set the oven to two hundred degrees", 108),
        ]))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .finished))
        #expect(ended.frame - 99 < configuration.endOfTurnSilenceFrames)
    }

    @Test func unfinishedWordsThatReachThePauseStaySoThroughTheFlicker() throws {
        let held = try #require(Self.end(silence: 120, reaching: [
            (50, "set the oven to", 40), (106, "set the oven to", 104), (110, "set the oven two", 109),
        ], then: 80))
        #expect(held.frame >= 300, "ended at the pause: \(held)")
    }

    /// "six thirty to" at a pause, each transcript through frame 104 with its last word ending at
    /// `wordsEnd` (the speech ends at frame 100).
    static func endAfterLastWord(endingAt wordsEnd: Int) -> (frame: Int, event: Endpointer.Event)? {
        var endpointer = Endpointer()
        for activity in EndpointerScript.activities("100# 400-") {
            if let event = endpointer.process(activity), case .speechEnded = event { return (activity.frameIndex, event) }
            if activity.frameIndex == 90 { endpointer.heard("six thirty to", throughFrame: 92, wordsEndFrame: 70) }
            if activity.frameIndex == 104 { endpointer.heard("six thirty to", throughFrame: 104, wordsEndFrame: wordsEnd) }
        }
        return nil
    }

    /// A misheard ending ("six thirty to[morrow]" heard as "six thirty to"): speech went on 30
    /// frames after the last word heard, so that word is not the last one said and cannot hold
    /// the turn; the sound alone ends it.
    @Test func anUnfinishedLastWordFollowedBySpeechNoWordAccountsForDoesNotHoldTheTurn() throws {
        let configuration = Endpointer.Configuration()
        let ended = try #require(Self.endAfterLastWord(endingAt: 70))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .silence))
        #expect(ended.frame - 99 == configuration.endOfTurnSilenceFrames)
    }

    /// The detector's hang-over after the last word is no speech left unheard: the word holds.
    @Test func anUnfinishedLastWordThatEndsWithTheSpeechHoldsTheTurn() throws {
        let configuration = Endpointer.Configuration()
        let ended = try #require(Self.endAfterLastWord(endingAt: 92))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .unfinished))
        #expect(ended.frame - 99 == configuration.maximumEndSilenceFrames)
    }

    /// The running hypothesis reads finished at the pause ("how many calories i mean it"); the
    /// eager end's final pass, decoded to the pause, ends on "is": the turn is held after all.
    @Test func aFinalPassAtThePauseEndingOnAnUnfinishedWordHoldsTheTurn() throws {
        let configuration = Endpointer.Configuration()
        var endpointer = Endpointer(configuration: configuration)
        var ended: (frame: Int, event: Endpointer.Event)?
        for activity in EndpointerScript.activities("100# 400-") where ended == nil {
            if let event = endpointer.process(activity), case .speechEnded = event { ended = (activity.frameIndex, event) }
            if activity.frameIndex == 104 { endpointer.heard("how many calories i mean it", throughFrame: 104) }
            if activity.frameIndex == 115 { endpointer.heardToPause("and how many calories are in is") }
        }
        let end = try #require(ended)
        #expect(end.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .unfinished))
        #expect(end.frame - 99 == configuration.maximumEndSilenceFrames)
    }

    /// A final pass that reads finished changes nothing: the running hypothesis judges.
    @Test func aFinalPassAtThePauseEndingOnAFinishedWordLeavesTheVerdict() throws {
        var endpointer = Endpointer()
        var ended: (frame: Int, event: Endpointer.Event)?
        for activity in EndpointerScript.activities("100# 400-") where ended == nil {
            if let event = endpointer.process(activity), case .speechEnded = event { ended = (activity.frameIndex, event) }
            if activity.frameIndex == 104 { endpointer.heard("set the oven to", throughFrame: 104) }
            if activity.frameIndex == 115 { endpointer.heardToPause("set the oven two") }
        }
        let end = try #require(ended)
        #expect(end.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .unfinished))
    }

    @Test func eagernessScalesTheWaitForUnfinishedWords() throws {
        func waited(_ eagerness: Endpointer.Eagerness) throws -> Int {
            var configuration = Endpointer.Configuration()
            configuration.eagerness = eagerness
            return try #require(Self.end(silence: 400, words: [(50, "what is the")], configuration: configuration)).frame
        }
        #expect(try waited(.high) < waited(.medium))
        #expect(try waited(.medium) < waited(.low))
    }

    @Test func wordsOfALanguageWithoutListsAreIgnored() throws {
        var configuration = Endpointer.Configuration()
        configuration.language = "de-DE"
        let ended = try #require(Self.end(silence: 200, words: [(50, "stell den ofen auf")], configuration: configuration))
        #expect(ended.event == .speechEnded(onsetFrame: 0, endFrame: 100, reason: .silence))
    }
}
