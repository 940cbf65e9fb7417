import EarshotTestSupport
import Testing

@testable import EarshotAudio

@Suite struct EndpointerTests {
    @Test func cleanRunReportsExactBoundaries() {
        let events = EndpointerScript.events("100- 50# 100-")
        #expect(
            events == [
                100: .onsetSuspected(onsetFrame: 100),
                114: .speechStarted(onsetFrame: 100, audioStartFrame: 70),
                209: .speechEnded(onsetFrame: 100, endFrame: 150, reason: .silence),
            ])
    }

    @Test func prefixPaddingIsClampedAtStreamStart() {
        let events = EndpointerScript.events("10- 40# 80-")
        #expect(events[24] == .speechStarted(onsetFrame: 10, audioStartFrame: 0))
        #expect(EndpointerScript.events("40# 80-")[14] == .speechStarted(onsetFrame: 0, audioStartFrame: 0))
    }

    @Test func burstShorterThanMinimumSpeechIsRejected() {
        let events = EndpointerScript.events("50- 14# 100-")
        #expect(events == [50: .onsetSuspected(onsetFrame: 50), 66: .onsetRejected(onsetFrame: 50)])
    }

    @Test func burstOfExactlyMinimumSpeechStarts() {
        let events = EndpointerScript.events("50- 15# 100-")
        #expect(events[64] == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
        #expect(events[124] == .speechEnded(onsetFrame: 50, endFrame: 65, reason: .silence))
    }

    @Test func shortGapInsideOnsetWindowIsTolerated() {
        let events = EndpointerScript.events("50- 8# 2- 7# 100-")
        #expect(events[50] == .onsetSuspected(onsetFrame: 50))
        #expect(events[66] == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
        #expect(events.count == 3)
    }

    @Test func longerGapInsideOnsetWindowRejectsAndRestarts() {
        let events = EndpointerScript.events("50- 8# 3- 20# 100-")
        #expect(
            events == [
                50: .onsetSuspected(onsetFrame: 50),
                60: .onsetRejected(onsetFrame: 50),
                61: .onsetSuspected(onsetFrame: 61),
                75: .speechStarted(onsetFrame: 61, audioStartFrame: 31),
                140: .speechEnded(onsetFrame: 61, endFrame: 81, reason: .silence),
            ])
    }

    @Test func innerPauseShorterThanEndOfTurnSilenceDoesNotSplit() {
        let events = EndpointerScript.events("100- 50# 59- 50# 100-")
        #expect(
            events == [
                100: .onsetSuspected(onsetFrame: 100),
                114: .speechStarted(onsetFrame: 100, audioStartFrame: 70),
                318: .speechEnded(onsetFrame: 100, endFrame: 259, reason: .silence),
            ])
    }

    @Test func pauseOfEndOfTurnSilenceSplits() {
        let events = EndpointerScript.events("100- 50# 60- 50# 100-")
        #expect(
            events == [
                100: .onsetSuspected(onsetFrame: 100),
                114: .speechStarted(onsetFrame: 100, audioStartFrame: 70),
                209: .speechEnded(onsetFrame: 100, endFrame: 150, reason: .silence),
                210: .onsetSuspected(onsetFrame: 210),
                224: .speechStarted(onsetFrame: 210, audioStartFrame: 180),
                319: .speechEnded(onsetFrame: 210, endFrame: 260, reason: .silence),
            ])
    }

    @Test func prefixPaddingNeverReachesIntoThePreviousUtterance() {
        let configuration = Endpointer.Configuration(prefixPaddingMilliseconds: 1_000)
        let events = EndpointerScript.events("100- 50# 70- 50# 100-", configuration: configuration)
        #expect(events[114] == .speechStarted(onsetFrame: 100, audioStartFrame: 0))
        #expect(events[234] == .speechStarted(onsetFrame: 220, audioStartFrame: 150))
    }

    @Test func configurationChangesTheBoundaryFrames() {
        let configuration = Endpointer.Configuration(
            prefixPaddingMilliseconds: 100,
            minimumSpeechMilliseconds: 50,
            endOfTurnSilenceMilliseconds: 200,
            onsetGapToleranceMilliseconds: 0)
        #expect(
            EndpointerScript.events("100- 3# 1- 30# 25- 30# 100-", configuration: configuration) == [
                100: .onsetSuspected(onsetFrame: 100),
                103: .onsetRejected(onsetFrame: 100),
                104: .onsetSuspected(onsetFrame: 104),
                108: .speechStarted(onsetFrame: 104, audioStartFrame: 94),
                153: .speechEnded(onsetFrame: 104, endFrame: 134, reason: .silence),
                159: .onsetSuspected(onsetFrame: 159),
                163: .speechStarted(onsetFrame: 159, audioStartFrame: 149),
                208: .speechEnded(onsetFrame: 159, endFrame: 189, reason: .silence),
            ])
    }

    @Test func millisecondsRoundUpToWholeFrames() {
        let configuration = Endpointer.Configuration(
            prefixPaddingMilliseconds: 301,
            minimumSpeechMilliseconds: 155,
            endOfTurnSilenceMilliseconds: -5,
            onsetGapToleranceMilliseconds: 11)
        #expect(configuration.prefixPaddingFrames == 31)
        #expect(configuration.minimumSpeechFrames == 16)
        #expect(configuration.endOfTurnSilenceFrames == 1)
        #expect(configuration.onsetGapToleranceFrames == 2)
        #expect(Endpointer.Configuration(minimumSpeechMilliseconds: 0).minimumSpeechFrames == 1)
    }

    @Test func singleFrameMinimumSpeechStartsWithoutSuspicion() {
        let configuration = Endpointer.Configuration(minimumSpeechMilliseconds: 10)
        #expect(
            EndpointerScript.events("40- 1# 100-", configuration: configuration) == [
                40: .speechStarted(onsetFrame: 40, audioStartFrame: 10),
                100: .speechEnded(onsetFrame: 40, endFrame: 41, reason: .silence),
            ])
    }

    @Test func finishClosesAnOpenUtteranceAtItsLastSpeechFrame() {
        let events = EndpointerScript.events("20- 40# 10-", finish: true)
        #expect(events[34] == .speechStarted(onsetFrame: 20, audioStartFrame: 0))
        #expect(events[70] == .speechEnded(onsetFrame: 20, endFrame: 60, reason: .streamEnd))
        #expect(EndpointerScript.events("20- 40#", finish: true)[60] == .speechEnded(onsetFrame: 20, endFrame: 60, reason: .streamEnd))
    }

    @Test func finishRejectsAnUnconfirmedOnsetAndIgnoresSilence() {
        #expect(EndpointerScript.events("20- 5#", finish: true)[25] == .onsetRejected(onsetFrame: 20))
        #expect(EndpointerScript.events("20- 50# 70-", finish: true)[140] == nil)
    }

    @Test func finishAndResetStartAFreshStream() {
        var endpointer = Endpointer()
        for activity in EndpointerScript.activities("100- 50# 10-") { _ = endpointer.process(activity) }
        #expect(endpointer.isInUtterance)
        #expect(endpointer.finish() == .speechEnded(onsetFrame: 100, endFrame: 150, reason: .streamEnd))
        #expect(!endpointer.isInUtterance)

        var secondStream: [Endpointer.Event] = []
        for activity in EndpointerScript.activities("5# 15#") {
            if let event = endpointer.process(activity) { secondStream.append(event) }
        }
        #expect(secondStream == [.onsetSuspected(onsetFrame: 0), .speechStarted(onsetFrame: 0, audioStartFrame: 0)])

        endpointer.reset()
        #expect(!endpointer.isInUtterance)
        #expect(endpointer.finish() == nil)
        #expect(endpointer.process(VoiceActivity(frameIndex: 7, probability: 1, isSpeech: true)) == .onsetSuspected(onsetFrame: 7))
    }

    @Test func hangoverAfterABurstDoesNotConfirmIt() {
        let events = EndpointerScript.events("50- 5# 20+ 100-")
        #expect(events == [50: .onsetSuspected(onsetFrame: 50), 77: .onsetRejected(onsetFrame: 50)])
    }

    @Test func lowProbabilitySpeechBridgesAnOnsetButOnlyConfidentFramesConfirmIt() {
        let events = EndpointerScript.events("50- 8# 10+ 7# 100-")
        #expect(events[74] == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
        #expect(events[134] == .speechEnded(onsetFrame: 50, endFrame: 75, reason: .silence))
        #expect(events.count == 3)
    }

    @Test func lowProbabilitySpeechKeepsAnUtteranceGoing() {
        let events = EndpointerScript.events("50- 20# 40+ 20# 30+ 100-")
        #expect(events[64] == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
        #expect(events[219] == .speechEnded(onsetFrame: 50, endFrame: 160, reason: .silence))
        #expect(events.count == 3)
    }

    @Test func confirmingProbabilityZeroCountsEverySpeechFrame() {
        let configuration = Endpointer.Configuration(confirmingSpeechProbability: 0)
        let events = EndpointerScript.events("50- 5# 20+ 100-", configuration: configuration)
        #expect(events[64] == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
    }

    @Test func onsetNotConfirmedWithinTheWindowIsRejected() {
        // One confident frame in three: the 15th arrives 43 frames after the onset, so a
        // 300 ms window rejects what a 600 ms window confirms.
        let pattern = "50- " + Array(repeating: "1# 2+", count: 30).joined(separator: " ") + " 100-"
        let shortWindow = Endpointer.Configuration(maximumOnsetWindowMilliseconds: 300)
        let rejected = EndpointerScript.events(pattern, configuration: shortWindow)
        #expect(rejected[50] == .onsetSuspected(onsetFrame: 50))
        #expect(rejected[79] == .onsetRejected(onsetFrame: 50))
        #expect(rejected[80] == .onsetSuspected(onsetFrame: 80))
        #expect(!rejected.values.contains { if case .speechStarted = $0 { true } else { false } })
        #expect(EndpointerScript.events(pattern)[92] == .speechStarted(onsetFrame: 50, audioStartFrame: 20))
    }

    /// Speech that does not confirm an onset in time (heard with little confidence here; in
    /// "switch off …", a pitch never held for long) runs the onset window out; the onset that
    /// follows at once is the same speech, and its audio starts where the first one began.
    @Test func anOnsetThatFollowsOneTheWindowRanOutOnStartsItsAudioThere() {
        let continued = EndpointerScript.events("100- 60+ 20# 100-")
        #expect(continued[159] == .onsetRejected(onsetFrame: 100))
        #expect(continued[174] == .speechStarted(onsetFrame: 160, audioStartFrame: 70))
        // After a silence the next onset is new speech: its own padding only.
        let separate = EndpointerScript.events("100- 60+ 10- 20# 100-")
        #expect(separate[184] == .speechStarted(onsetFrame: 170, audioStartFrame: 140))
    }

    @Test func historyFramesCoverPrefixTwoOnsetWindowsAndLookahead() {
        let configuration = Endpointer.Configuration()
        #expect(configuration.maximumOnsetWindowFrames == 60)
        #expect(configuration.historyFrames(lookaheadFrames: 3) == 155)
        #expect(Endpointer.Configuration(maximumOnsetWindowMilliseconds: 50).maximumOnsetWindowFrames == 15)
    }

    /// The ring size the documentation promises is enough for every onset pattern.
    @Test(arguments: [(20, 600), (0, 600), (50, 300), (20, 2_000)])
    func audioStartIsAlwaysInsideTheDocumentedHistory(gapToleranceMilliseconds: Int, windowMilliseconds: Int) {
        let configuration = Endpointer.Configuration(
            onsetGapToleranceMilliseconds: gapToleranceMilliseconds,
            maximumOnsetWindowMilliseconds: windowMilliseconds)
        let lookahead = 3
        var generator = SeededGenerator(seed: 7)
        var endpointer = Endpointer(configuration: configuration)
        var frame = 0
        var started = 0
        var worstReach = 0
        while frame < 200_000 {
            // Runs of confident speech, low-probability speech and silence of random lengths.
            let kind = generator.next() % 3
            let length = Int(generator.next() % (kind == 2 ? 90 : 12)) + 1
            for _ in 0..<length {
                let activity = VoiceActivity(
                    frameIndex: frame, probability: kind == 0 ? 0.9 : 0.3, isSpeech: kind != 2)
                if case .speechStarted(_, let audioStart) = endpointer.process(activity) {
                    started += 1
                    // The newest audio frame fed to the detector when this verdict came out.
                    worstReach = max(worstReach, frame + lookahead - audioStart + 1)
                }
                frame += 1
            }
        }
        #expect(started > 100)
        #expect(worstReach <= configuration.historyFrames(lookaheadFrames: lookahead))
    }
}
