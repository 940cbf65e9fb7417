import EarshotTurns
import Testing

@Suite("Conversations end to end")
struct TurnMachineScenarioTests {
    @Test func oneTurnFromStartToDismiss() {
        var harness = TurnHarness()
        var snapshot = TurnSnapshot(phase: .idle, turn: 0, muted: false)
        func expectMove(_ action: TurnAction, to phase: TurnPhase, turn: Int, effects: [TurnEffect]) {
            let next = TurnSnapshot(phase: phase, turn: turn, muted: false)
            #expect(action == .transition(TurnTransition(from: snapshot, to: next, effects: effects)))
            snapshot = next
        }
        expectMove(harness.send { $0.start() }, to: .listening, turn: 0, effects: [.openMicrophone])
        expectMove(harness.send { $0.utteranceStarted() }, to: .hearing, turn: 1, effects: [.announceSpeech, .beginUtterance(turn: 1)])
        expectMove(harness.send { $0.utteranceEnded() }, to: .thinking, turn: 1, effects: [.endUtterance(turn: 1)])
        expectMove(
            harness.send { $0.finalTranscript(turn: 1, text: "what's the weather") }, to: .thinking, turn: 1,
            effects: [.requestReply(turn: 1, transcript: "what's the weather")])
        expectMove(
            harness.send { $0.replyRequested(turn: 1, text: "sunny") }, to: .thinking, turn: 1,
            effects: [.synthesize(reply: 1, text: "sunny")])
        #expect(harness.machine.replyInFlight == 1)
        expectMove(harness.send { $0.playbackStarted(reply: 1) }, to: .speaking, turn: 1, effects: [])
        expectMove(harness.send { $0.playbackFinished(reply: 1) }, to: .listening, turn: 1, effects: [])
        #expect(harness.machine.replyInFlight == nil)
        expectMove(harness.send { $0.dismiss() }, to: .idle, turn: 1, effects: [.closeMicrophone])
    }

    @Test func confirmedBargeInBecomesTheNextTurn() {
        var harness = TurnSituation.speaking.make()
        harness.send { $0.utteranceStarted() }
        let confirmed = harness.send { $0.bargeInConfirmed() }
        #expect(confirmed.effects == [.announceSpeech, .stopPlayback(reply: 2), .beginUtterance(turn: 3)])
        #expect(harness.machine.snapshot.controls == [.cancel, .dismiss, .mute])
        harness.send { $0.utteranceEnded() }
        #expect(harness.send { $0.playbackFinished(reply: 2) } == .ignored(.stalePlayback(reply: 2)))
        let transcribed = harness.send { $0.finalTranscript(turn: 3, text: "no, the other one") }
        #expect(transcribed.effects == [.requestReply(turn: 3, transcript: "no, the other one")])
        let replied = harness.send { $0.replyRequested(turn: 3, text: "okay") }
        #expect(replied.effects == [.synthesize(reply: 3, text: "okay")])
    }

    /// Speech over a reply reaches front ends only once both the detector and the interruption
    /// confirmed it, in either order.
    @Test func speechOverAReplyIsAnnouncedOnceBothConfirmIt() {
        var detectorFirst = TurnSituation.speaking.make()
        #expect(detectorFirst.send { $0.onsetSuspected() }.effects == [.pausePlayback(reply: 2)])
        #expect(detectorFirst.send { $0.utteranceStarted() } == .ignored(.utteranceInProgress))
        let confirmed = detectorFirst.send { $0.bargeInConfirmed() }
        #expect(confirmed.effects == [.announceSpeech, .stopPlayback(reply: 2), .beginUtterance(turn: 3)])
        #expect(detectorFirst.send { $0.utteranceStarted() } == .ignored(.utteranceInProgress))

        var interruptionFirst = TurnSituation.speaking.make()
        interruptionFirst.send { $0.onsetSuspected() }
        #expect(interruptionFirst.send { $0.bargeInConfirmed() }.effects == [.stopPlayback(reply: 2), .beginUtterance(turn: 3)])
        let announced = interruptionFirst.send { $0.utteranceStarted() }
        #expect(announced.effects == [.announceSpeech])
        #expect(interruptionFirst.phase == .hearing)
        #expect(interruptionFirst.send { $0.utteranceStarted() } == .ignored(.utteranceInProgress))

        // A suspicion the detector rejects leaves nothing to announce.
        var rejected = TurnSituation.speaking.make()
        rejected.send { $0.onsetSuspected() }
        #expect(rejected.send { $0.onsetRejected() }.effects == [.resumePlayback(reply: 2)])
        rejected.send { $0.onsetSuspected() }
        #expect(rejected.send { $0.bargeInConfirmed() }.effects == [.stopPlayback(reply: 2), .beginUtterance(turn: 3)])
    }

    @Test func falseInterruptionResumesTheSameReply() {
        var harness = TurnSituation.speaking.make()
        #expect(harness.send { $0.utteranceStarted() }.effects == [.pausePlayback(reply: 2)])
        #expect(harness.send { $0.utteranceEnded() }.effects == [.resumePlayback(reply: 2)])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .speaking, turn: 2, muted: false))
        #expect(harness.send { $0.playbackFinished(reply: 2) }.effects == [])
        #expect(harness.phase == .listening)
        #expect(harness.turn == 2)
    }

    @Test func speechOverTheEndOfPlaybackIsHeard() {
        var harness = TurnSituation.speaking.make()
        harness.send { $0.utteranceStarted() }
        #expect(harness.send { $0.playbackFinished(reply: 2) }.effects == [.announceSpeech, .beginUtterance(turn: 3)])
        #expect(harness.phase == .hearing)
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 3)])
    }

    @Test func speakingAgainWhileThinkingSupersedesTheTurn() {
        var harness = TurnSituation.awaitingReply.make()
        #expect(harness.send { $0.utteranceStarted() }.effects == [.announceSpeech, .discardReply(turn: 2), .beginUtterance(turn: 3)])
        #expect(harness.send { $0.replyRequested(turn: 2, text: "late") } == .ignored(.staleReply(turn: 2)))
        harness.send { $0.utteranceEnded() }
        #expect(harness.send { $0.finalTranscript(turn: 3, text: "in Paris") }.effects == [
            .requestReply(turn: 3, transcript: "in Paris")
        ])
    }

    @Test func nothingRecognisedReturnsToListeningWithoutAReply() {
        var harness = TurnSituation.transcribing.make()
        let action = harness.send { $0.finalTranscript(turn: 2, text: "") }
        #expect(action.effects == [])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: false))
    }

    @Test func responderMayDeclineToReply() {
        var harness = TurnSituation.awaitingReply.make()
        #expect(harness.send { $0.replyRequested(turn: 2, text: "  ") }.effects == [])
        #expect(harness.phase == .listening)
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test func muteWhileHearingDiscardsAndIgnoresSpeechUntilUnmuted() {
        var harness = TurnSituation.hearing.make()
        #expect(harness.send { $0.mute() }.effects == [.silenceMicrophone, .discardUtterance(turn: 2)])
        #expect(harness.send { $0.utteranceEnded() } == .ignored(.noUtteranceInProgress))
        #expect(harness.send { $0.utteranceStarted() } == .ignored(.microphoneMuted))
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: true))
        #expect(harness.send { $0.unmute() }.effects == [.openMicrophone])
        #expect(harness.send { $0.utteranceStarted() }.effects == [.announceSpeech, .beginUtterance(turn: 3)])
    }

    @Test func mutedSpeakingIgnoresBargeIn() {
        var harness = TurnSituation.speaking.make()
        harness.send { $0.mute() }
        #expect(harness.send { $0.utteranceStarted() } == .ignored(.microphoneMuted))
        #expect(harness.machine.snapshot.controls == [.stop, .dismiss, .unmute])
        #expect(harness.send { $0.dismiss() }.effects == [.stopPlayback(reply: 2), .closeMicrophone])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .idle, turn: 2, muted: false))
    }

    @Test func numberingContinuesAcrossSessions() {
        var harness = TurnSituation.idle.make()
        harness.send { $0.start() }
        #expect(harness.turn == 1)
        #expect(harness.send { $0.utteranceStarted() }.effects == [.announceSpeech, .beginUtterance(turn: 2)])
        harness.send { $0.utteranceEnded() }
        harness.send { $0.finalTranscript(turn: 2, text: "again") }
        let replied = harness.send { $0.replyRequested(turn: 2, text: "sure") }
        #expect(replied.effects == [.synthesize(reply: 2, text: "sure")])
    }

    @Test func unpromptedReplySpeaksFromListening() {
        var harness = TurnSituation.listening.make()
        #expect(harness.send { $0.replyRequested(turn: nil, text: "timer done") }.effects == [
            .synthesize(reply: 2, text: "timer done")
        ])
        #expect(harness.turn == 1)
        harness.send { $0.playbackStarted(reply: 2) }
        #expect(harness.machine.snapshot.controls.contains(.stop))
        #expect(harness.send { $0.stop() }.effects == [.stopPlayback(reply: 2)])
        #expect(harness.send { $0.playbackFinished(reply: 2) } == .ignored(.stalePlayback(reply: 2)))
    }

    @Test func cuesMarkVoiceModeStartingAndEndingOnlyWhenAskedFor() {
        var configuration = TurnMachine<ManualClock>.Configuration.standard
        configuration.playsCues = true
        var harness = TurnHarness(configuration: configuration)
        #expect(harness.send { $0.start() }.effects == [.openMicrophone, .playCue(.voiceModeOn)])
        #expect(harness.send { $0.mute() }.effects == [.silenceMicrophone])
        #expect(harness.send { $0.dismiss() }.effects == [.closeMicrophone, .playCue(.voiceModeOff)])
        harness.machine.reconfigure(.standard)
        #expect(harness.send { $0.start() }.effects == [.openMicrophone])
    }

    @Test func aRepliesVoiceAndItsContinuationTravelWithIt() {
        var harness = TurnSituation.awaitingReply.make()
        #expect(harness.send { $0.replyRequested(turn: 2, text: "First,", voice: "ember", continues: true) }.effects == [
            .synthesize(reply: 2, text: "First,", voice: "ember", continues: true)
        ])
    }

    @Test func aPreviewOutsideVoiceModeLeavesTheTurnsAlone() {
        var harness = TurnSituation.idle.make()
        let action = harness.send { $0.preview(text: "Hi, I'm Sky.", voice: "sky") }
        #expect(action.effects == [.preview(text: "Hi, I'm Sky.", voice: "sky")])
        #expect(harness.phase == .idle)
        #expect(harness.send { $0.playbackStarted(reply: TurnMachine<ManualClock>.previewReply) } == .ignored(.previewPlayback))
        #expect(harness.send { $0.start() }.effects == [.openMicrophone])
    }
}
