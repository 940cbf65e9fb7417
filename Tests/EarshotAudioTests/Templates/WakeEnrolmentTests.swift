import EarshotAudio
import Testing

/// Takes of a wake phrase become templates only when there are enough, each is one phrase of
/// speech, and they sound alike; otherwise the refusal says what to do.
@Suite struct WakeEnrolmentTests {
    static func takes(_ clips: [AudioClip]) -> [(name: String, clip: AudioClip)] {
        clips.enumerated().map { (name: "take\($0.offset + 1).wav", clip: $0.element) }
    }

    @Test func threeTakesOfThePhraseAreTrimmedToItsSpeech() throws {
        let enrolled = try WakeEnrolment.enrol(Self.takes([
            try WakeTemplateFixture.phraseTake(stretch: 1.05), try WakeTemplateFixture.phraseTake(), try WakeTemplateFixture.phraseTake(stretch: 0.95),
        ]))
        #expect(enrolled.takes.count == 3)
        // 0.76 s of audio, about 0.7 s of it speech; the 0.5 s of quiet on each side is gone.
        let seconds = enrolled.takes[1].count / 160
        #expect((55...78).contains(seconds), "\(seconds) frames")
        #expect(enrolled.disagreement.allSatisfy { $0 < WakeEnrolment.agreementLimit })
    }

    @Test func fewerThanThreeTakesAreRefused() throws {
        #expect(throws: WakeEnrolment.Refusal(description: "3 takes of the wake phrase are needed, and 2 were given: record the phrase 3 times, a file each")) {
            _ = try WakeEnrolment.enrol(Self.takes([try WakeTemplateFixture.phraseTake(), try WakeTemplateFixture.phraseTake()]))
        }
    }

    @Test func aSilentTakeIsRefusedByName() throws {
        let silent = AudioClip(samples: WakeTemplateFixture.quiet(2))
        let error = try #require(throws: WakeEnrolment.Refusal.self) {
            _ = try WakeEnrolment.enrol(Self.takes([try WakeTemplateFixture.phraseTake(), silent, try WakeTemplateFixture.phraseTake()]))
        }
        #expect(error.description == "take2.wav has no speech in it: say the wake phrase clearly, near the microphone")
    }

    @Test func aTakeTooLongForAPhraseIsRefused() throws {
        let long = try WakeTemplateFixture.clip("two_requests_slt.wav")
        let error = try #require(throws: WakeEnrolment.Refusal.self) {
            _ = try WakeEnrolment.enrol(Self.takes([try WakeTemplateFixture.phraseTake(), try WakeTemplateFixture.phraseTake(), long]))
        }
        #expect(error.description.hasPrefix("take3.wav has "), "\(error)")
        #expect(error.description.contains("too long for a wake phrase"), "\(error)")
    }

    @Test func aTakeOfOtherWordsIsRefusedAsUnlikeTheOthers() throws {
        let error = try #require(throws: WakeEnrolment.Refusal.self) {
            _ = try WakeEnrolment.enrol(Self.takes([
                try WakeTemplateFixture.phraseTake(stretch: 1.05), try WakeTemplateFixture.otherWords(), try WakeTemplateFixture.phraseTake(),
                try WakeTemplateFixture.phraseTake(stretch: 0.95),
            ]))
        }
        #expect(error.description.hasPrefix("take2.wav does not sound like the other takes"), "\(error)")
        #expect(error.description.hasSuffix("record that take again"), "\(error)")
    }
}
