@testable import EarshotAudio
import Testing

/// The speaker's own pauses: a speaker who went on after a finished-sounding end is given longer
/// next time; the patience fades with each end they did not go on after, and a reply makes what
/// follows a new turn, never a pause.
@Suite struct SpeakerPausesTests {
    @Test func theLongestOfTheNewestThreePausesSetsThePatience() {
        var pauses = SpeakerPauses()
        #expect(pauses.patienceFrames == 0)
        pauses.wentOn(after: 40)
        pauses.wentOn(after: 10)  // a gap between words, not a pause
        pauses.wentOn(after: 200)  // a new turn, not a pause
        #expect(pauses.patienceFrames == 40 + SpeakerPauses.margin)
        for pause in [20, 25, 30] { pauses.wentOn(after: pause) }
        #expect(pauses.patienceFrames == 30 + SpeakerPauses.margin, "the 40 is older than the newest three")
    }

    @Test func eachEndTheSpeakerDidNotGoOnAfterForgetsTheOldestPause() {
        var pauses = SpeakerPauses()
        for pause in [60, 30, 20] { pauses.wentOn(after: pause) }
        pauses.spokeAgain(after: 400)
        #expect(pauses.patienceFrames == 30 + SpeakerPauses.margin)
        pauses.stoppedAsJudged()
        #expect(pauses.patienceFrames == 20 + SpeakerPauses.margin)
        pauses.stoppedAsJudged()
        pauses.stoppedAsJudged()
        #expect(pauses.patienceFrames == 0)
        pauses.spokeAgain(after: 50)
        #expect(pauses.patienceFrames == 50 + SpeakerPauses.margin)
    }

    /// "stop" (a short command, 40 frames, heard as words), silence, "stop" again from frame 100,
    /// then silence; `answered` reports a reply between the two. Returns the silence that ended each.
    static func silences(answered: Bool = false) -> [Int] {
        var endpointer = Endpointer()
        var silences: [Int] = []
        var frame = 0
        func feed(speech: Bool) {
            let cues = speech
                ? SpeechCues(periodicity: 0.9, pitchHz: 160 - Float(frame % 100) * 0.5, levelDB: -20)
                : SpeechCues(periodicity: 0, pitchHz: 0, levelDB: -60)
            let activity = VoiceActivity(frameIndex: frame, probability: speech ? 0.9 : 0.1, isSpeech: speech, cues: cues)
            if case .speechEnded(_, let end, _) = endpointer.process(activity) { silences.append(frame - end + 1) }
            if speech, frame % 100 == 35 { endpointer.heard("stop") }
            frame += 1
        }
        for _ in 0..<40 { feed(speech: true) }
        while silences.isEmpty { feed(speech: false) }
        if answered { endpointer.turnAnswered() }
        while frame < 100 { feed(speech: false) }
        for _ in 0..<40 { feed(speech: true) }
        while silences.count < 2, frame < 400 { feed(speech: false) }
        return silences
    }

    @Test func aSpeakerWhoWentOnAfterAFinishedEndIsGivenLongerNextTime() {
        let configuration = Endpointer.Configuration()
        let finished = configuration.finishedTurnSilenceFrames
        let patient = configuration.endOfTurnSilenceFrames * 3 / 4
        #expect(Self.silences() == [finished, patient])
    }

    @Test func aReplyInBetweenMakesTheNextUtteranceANewTurn() {
        let finished = Endpointer.Configuration().finishedTurnSilenceFrames
        #expect(Self.silences(answered: true) == [finished, finished])
    }
}
