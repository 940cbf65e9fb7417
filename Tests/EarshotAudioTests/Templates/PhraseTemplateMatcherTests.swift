import EarshotAudio
import Testing

/// The phrase heard by enrolled takes, frame by frame, as the daemon hears it.
@Suite struct PhraseTemplateMatcherTests {
    static func enrolled() throws -> [[Float]] {
        try WakeEnrolment.enrol([
            (name: "slower", clip: try WakeTemplateFixture.phraseTake(stretch: 1.06)),
            (name: "faster", clip: try WakeTemplateFixture.phraseTake(stretch: 0.95)),
            (name: "softer", clip: try WakeTemplateFixture.phraseTake(stretch: 1.02, gain: 0.5)),
        ]).takes
    }

    /// The frame at which the matcher first heard the phrase in `clip`, fed whole as one
    /// stretch (the daemon ends the stretch there).
    static func heard(in clip: AudioClip, by takes: [[Float]]) -> Int? {
        var matcher = PhraseTemplateMatcher(takes: takes)
        matcher.begin()
        return clip.frames.first { matcher.hears($0.samples) }?.index
    }

    @Test func hearsThePhraseAsItEndsInTheRequestThatFollowsIt() throws {
        let heard = Self.heard(in: try WakeTemplateFixture.clip("wake_request_slt.wav"), by: try Self.enrolled())
        // The phrase ends at 1.73 s, frame 173.
        let frame = try #require(heard)
        #expect((170...215).contains(frame), "\(frame)")
    }

    @Test func doesNotHearOtherWords() throws {
        let heard = Self.heard(in: try WakeTemplateFixture.clip("two_requests_slt.wav"), by: try Self.enrolled())
        #expect(heard == nil, "\(String(describing: heard))")
    }

    @Test func theSameWordsLouderAreAsClose() throws {
        var loud = try WakeTemplateFixture.phraseTake()
        loud.samples = loud.samples.map { $0 * 1.8 }
        #expect(Self.heard(in: loud, by: try Self.enrolled()) != nil)
    }
}
