import EarshotTurns
import Testing

@Suite("Stale, unknown and nonsensical inputs")
struct TurnMachineRejectionTests {
    @Test(arguments: [0, -1, 3, 99])
    func transcriptForATurnThatNeverHappenedIsRejected(turn: Int) {
        var harness = TurnSituation.transcribing.make()
        #expect(harness.send { $0.finalTranscript(turn: turn, text: "hi") } == .rejected(.unknownTurn(turn)))
        #expect(harness.phase == .thinking)
    }

    @Test(arguments: [0, 3, 42])
    func replyForATurnThatNeverHappenedIsRejected(turn: Int) {
        var harness = TurnSituation.awaitingReply.make()
        #expect(harness.send { $0.replyRequested(turn: turn, text: "hi") } == .rejected(.unknownTurn(turn)))
    }

    @Test(arguments: [3, -7])
    func playbackOfAReplyNeverHandedOutIsRejected(reply: Int) {
        var harness = TurnSituation.speaking.make()
        #expect(harness.send { $0.playbackStarted(reply: reply) } == .rejected(.unknownReply(reply)))
        #expect(harness.send { $0.playbackFinished(reply: reply) } == .rejected(.unknownReply(reply)))
        #expect(harness.phase == .speaking)
    }

    @Test func lateEventsAfterCancelAreStale() {
        var harness = TurnSituation.preparingSpeech.make()
        #expect(harness.send { $0.cancel() }.effects == [.stopPlayback(reply: 2)])
        #expect(harness.send { $0.playbackStarted(reply: 2) } == .ignored(.stalePlayback(reply: 2)))
        #expect(harness.send { $0.playbackFinished(reply: 2) } == .ignored(.stalePlayback(reply: 2)))
        #expect(harness.send { $0.replyRequested(turn: 2, text: "again") } == .ignored(.staleReply(turn: 2)))
        #expect(harness.send { $0.finalTranscript(turn: 2, text: "again") } == .ignored(.staleTranscript(turn: 2)))
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: false))
    }

    @Test func oldPlaybackCannotEndTheCurrentReply() {
        var harness = TurnSituation.speaking.make()
        #expect(harness.send { $0.playbackFinished(reply: 1) } == .ignored(.stalePlayback(reply: 1)))
        #expect(harness.phase == .speaking)
        #expect(harness.machine.replyInFlight == 2)
    }

    @Test func unpromptedReplyNeedsText() {
        var harness = TurnSituation.listening.make()
        #expect(harness.send { $0.replyRequested(turn: nil, text: "") } == .rejected(.emptyReply))
        #expect(harness.send { $0.replyRequested(turn: nil, text: " \t") } == .rejected(.emptyReply))
        #expect(harness.phase == .listening)
    }

    @Test func rejectionsReadAsErrorMessages() {
        let messages: [TurnRejection: String] = [
            .voiceModeOff: "voice mode is off",
            .voiceModeAlreadyOn: "voice mode is already on",
            .alreadyMuted: "the microphone is already muted",
            .notMuted: "the microphone is not muted",
            .nothingPlaying: "nothing is playing",
            .nothingToCancel: "there is no turn to cancel",
            .noBargeInSuspected: "no interruption is in progress",
            .unknownTurn(4): "turn 4 has not happened",
            .unknownReply(5): "reply 5 was never requested",
            .utteranceNotEnded(turn: 2): "turn 2 is still being spoken",
            .replyNotRequested(turn: 2): "turn 2 has no transcript yet",
            .cannotSpeakWhile(.hearing): "cannot speak while hearing",
            .emptyReply: "the reply is empty",
        ]
        for (rejection, message) in messages {
            #expect(rejection.description == message)
        }
    }

    @Test func errorsReadAsUserMessages() {
        let errors: [TurnError] = [
            .transcriptTimedOut(turn: 1), .replyTimedOut(turn: 1), .playbackDidNotStart(turn: 1),
            .playbackTimedOut(turn: 1), .transcriberUnavailable(turn: 1),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(errors.allSatisfy { $0.description.first?.isUppercase == true && $0.description.hasSuffix(".") })
    }

    @Test func controlNamesAreStable() {
        #expect(TurnControls(phase: .idle, muted: false).names == [])
        #expect(TurnControls(phase: .listening, muted: true).names == ["dismiss", "unmute"])
        #expect(TurnControls(phase: .thinking, muted: false).names == ["cancel", "dismiss", "mute"])
        #expect(TurnControls(phase: .speaking, muted: false).names == ["stop", "dismiss", "mute"])
    }
}
