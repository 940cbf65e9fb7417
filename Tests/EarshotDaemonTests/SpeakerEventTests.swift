@testable import EarshotDaemon
import EarshotProtocol
import EarshotTurns
import Testing

/// The daemon's `speaker` events, all made in one place: from the turn machine's effects on a
/// reply and from the player's reports.
@Suite struct SpeakerEventTests {
    @Test func pausingAndResumingAReplyAreTold() {
        #expect(SpeakerEvent(TurnEffect.pausePlayback(reply: 3), time: 4.5) == SpeakerEvent(phase: .pause, reply: 3, time: 4.5))
        #expect(SpeakerEvent(TurnEffect.resumePlayback(reply: 3), time: 4.6) == SpeakerEvent(phase: .resume, reply: 3, time: 4.6))
    }

    @Test func noOtherEffectIsTold() {
        let effects: [TurnEffect] = [
            .openMicrophone, .closeMicrophone, .silenceMicrophone, .playCue(.voiceModeOn), .preview(text: "Hi.", voice: nil),
            .announceSpeech, .beginUtterance(turn: 1), .endUtterance(turn: 1), .discardUtterance(turn: 1),
            .requestReply(turn: 1, transcript: "hello"), .discardReply(turn: 1), .synthesize(reply: 1, text: "Hi."),
            .continueSpeech(reply: 1, text: "more", continues: true), .stopPlayback(reply: 1), .reportError(.replyTimedOut(turn: 1)),
        ]
        for effect in effects { #expect(SpeakerEvent(effect, time: 1) == nil, "\(effect)") }
    }

    @Test func thePlayersReportsAreToldAsTheReplysPhases() {
        let reports: [(PlaybackReport, SpeakerEvent?)] = [
            (.saying(reply: 2, voice: "cove", text: "Tomorrow is sunny.", first: true),
             SpeakerEvent(phase: .start, reply: 2, voice: "cove", text: "Tomorrow is sunny.", time: 7)),
            (.saying(reply: 2, voice: "cove", text: "And warm.", first: false),
             SpeakerEvent(phase: .say, reply: 2, text: "And warm.", time: 7)),
            (.stopped(reply: 2), SpeakerEvent(phase: .stop, reply: 2, time: 7)),
            (.finished(reply: 2), SpeakerEvent(phase: .end, reply: 2, time: 7)),
            (.started(reply: 2), nil),
            (.heard(reply: 2, text: "Tomorrow is"), nil),
            (.failed(reply: 2, code: .speechFailed, message: "The synthesizer failed."), nil),
        ]
        for (report, event) in reports { #expect(SpeakerEvent(report, time: 7) == event, "\(report)") }
    }
}
