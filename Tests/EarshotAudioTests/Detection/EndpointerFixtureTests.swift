import EarshotAudio
import Testing

@testable import EarshotAudio

/// The endpointer behind the real detector, on clips cut from the VAD dev set.
@Suite struct EndpointerFixtureTests {
    /// The `speechStarted` and `speechEnded` events of detector + endpointer over a whole clip.
    private static func utterances(in clip: AudioClip) -> (started: [Endpointer.Event], ended: [Endpointer.Event]) {
        var detector = SpectralVAD()
        var endpointer = Endpointer()
        var events: [Endpointer.Event] = []
        var verdicts: [VoiceActivity] = []
        for frame in clip.frames {
            if let verdict = detector.process(frame) { verdicts.append(verdict) }
        }
        verdicts += detector.finish(after: clip.frameCount - 1)
        for verdict in verdicts {
            if let event = endpointer.process(verdict) { events.append(event) }
        }
        if let event = endpointer.finish() { events.append(event) }
        let started = events.filter { if case .speechStarted = $0 { true } else { false } }
        let ended = events.filter { if case .speechEnded = $0 { true } else { false } }
        return (started, ended)
    }

    /// Onsets may differ from the labels by this many frames: the labels mark the first frame
    /// within 40 dB of the utterance's loudest, which a detector hears a few frames either side.
    private static let onsetTolerance = 5

    /// `earlyEnd`: how many frames before the labelled end the utterance may end. The labels were
    /// made on the clean signal; in `real_utterance_in_white_noise` the closing "s" of "clubs" is
    /// below the white noise, so no detector can hear it.
    @Test(arguments: [("utterance_after_silence", 3), ("real_utterance_in_white_noise", 20)])
    func utteranceAfterSilenceStartsNearItsLabelledOnset(name: String, earlyEnd: Int) throws {
        let fixture = try EndpointerFixture(name)
        let labelled = try #require(fixture.segments.first)
        let (started, ended) = Self.utterances(in: fixture.clip)
        try #require(started.count == 1 && ended.count == 1, "\(started) \(ended)")
        guard case .speechStarted(let onset, let audioStart) = started[0],
            case .speechEnded(let endedOnset, let end, _) = ended[0]
        else { return }
        #expect(abs(onset - labelled.lowerBound) <= Self.onsetTolerance, "onset \(onset), labelled \(labelled)")
        #expect(audioStart == onset - 30)
        #expect(endedOnset == onset)
        // The detector holds speech for a hangover after the last speech frame.
        #expect(end >= labelled.upperBound - earlyEnd && end <= labelled.upperBound + 25, "end \(end), labelled \(labelled)")
    }

    @Test func shortNoiseBurstsAndClicksNeverStartAnUtterance() throws {
        let fixture = try EndpointerFixture("noise_bursts")
        let (started, ended) = Self.utterances(in: fixture.clip)
        #expect(started.isEmpty, "\(started)")
        #expect(ended.isEmpty)
    }

    @Test func innerPauseOfAThirdOfASecondKeepsOneUtterance() throws {
        let fixture = try EndpointerFixture("two_phrases_short_pause")
        let (started, ended) = Self.utterances(in: fixture.clip)
        #expect(started.count == 1, "\(started)")
        try #require(ended.count == 1, "\(ended)")
        guard case .speechEnded(let onset, let end, _) = ended[0] else { return }
        #expect(abs(onset - fixture.segments[0].lowerBound) <= Self.onsetTolerance)
        #expect(end >= fixture.segments[1].upperBound - 3 && end <= fixture.segments[1].upperBound + 25)
    }

    @Test func pauseOfOverASecondSplitsTheUtterances() throws {
        let fixture = try EndpointerFixture("two_phrases_long_pause")
        let (started, ended) = Self.utterances(in: fixture.clip)
        #expect(started.count == 2, "\(started)")
        try #require(ended.count == 2, "\(ended)")
        for (event, labelled) in zip(ended, fixture.segments) {
            guard case .speechEnded(let onset, let end, _) = event else { continue }
            #expect(abs(onset - labelled.lowerBound) <= Self.onsetTolerance, "onset \(onset), labelled \(labelled)")
            #expect(end >= labelled.upperBound - 3 && end <= labelled.upperBound + 25, "end \(end), labelled \(labelled)")
        }
    }
}
