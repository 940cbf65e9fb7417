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

    @Test func thePhraseInSteadyNoiseIsHeard() throws {
        // White noise 15 dB below the phrase: the takes' distance rises, and so does the background.
        let take = try WakeTemplateFixture.phraseTake()
        let power = take.samples.reduce(0) { $0 + $1 * $1 } / Float(take.samples.count)
        let amplitude = (power / 31.6 * 3).squareRoot()
        var state: UInt64 = 7
        let noisy = take.samples.map { sample -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return sample + amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
        #expect(Self.heard(in: AudioClip(samples: noisy), by: try Self.enrolled()) != nil)
    }

    @Test func theScoreTakesOffTheBackgroundAsWeighted() throws {
        // With the whole background off, the score is lower than with none off.
        let takes = try Self.enrolled()
        let clip = try WakeTemplateFixture.clip("two_requests_slt.wav")
        var closest: [Float] = []
        for weight: Float in [0, 1] {
            var matcher = PhraseTemplateMatcher(takes: takes, threshold: -1, backgroundWeight: weight)
            matcher.begin()
            for frame in clip.frames { _ = matcher.hears(frame.samples) }
            closest.append(matcher.closest)
        }
        #expect(closest[1] < closest[0] - 0.1, "\(closest)")
        #expect(closest[0] > PhraseTemplateMatcher.threshold(for: takes))
    }

    @Test func theThresholdFollowsHowFarApartTheTakesLie() throws {
        let close = try Self.enrolled()
        let apart = try WakeEnrolment.enrol([
            (name: "slower", clip: try WakeTemplateFixture.phraseTake(stretch: 1.1)),
            (name: "faster", clip: try WakeTemplateFixture.phraseTake(stretch: 0.9)),
            (name: "as is", clip: try WakeTemplateFixture.phraseTake()),
        ])
        #expect(apart.threshold == PhraseTemplateMatcher.threshold(for: apart.takes))
        #expect(PhraseTemplateMatcher.threshold(for: close) < apart.threshold)
        let same = try WakeTemplateFixture.phraseTake().samples
        #expect(PhraseTemplateMatcher.threshold(for: [same, same, same]) == PhraseTemplateMatcher.lowestThreshold, "no spread at all")
    }
}
