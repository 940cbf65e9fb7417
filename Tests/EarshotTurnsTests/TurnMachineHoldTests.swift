@testable import EarshotTurns
import Testing

/// Hold-to-talk (`hold` … `release`), the one-shot `talk`, `toggle`, and voice mode going back to
/// off or muted after a turn asked for by key.
@Suite("Hold to talk and one-shot turns")
struct TurnMachineHoldTests {
    /// What `hold` does from every situation: what is under way is dropped, the microphone opens
    /// if it was off or muted, and a new turn opens now.
    static let holdEffects: [TurnSituation: [TurnEffect]] = [
        .idle: [.openMicrophone, .beginHeldUtterance(turn: 2)],
        .listening: [.beginHeldUtterance(turn: 2)],
        .listeningMuted: [.openMicrophone, .beginHeldUtterance(turn: 2)],
        .hearing: [.discardUtterance(turn: 2), .beginHeldUtterance(turn: 3)],
        .transcribing: [.discardUtterance(turn: 2), .beginHeldUtterance(turn: 3)],
        .awaitingReply: [.discardReply(turn: 2), .beginHeldUtterance(turn: 3)],
        .preparingSpeech: [.stopPlayback(reply: 2), .beginHeldUtterance(turn: 3)],
        .speaking: [.stopPlayback(reply: 2), .beginHeldUtterance(turn: 3)],
        .bargeInSuspected: [.stopPlayback(reply: 2), .beginHeldUtterance(turn: 3)],
        .eagerTranscribing: [.discardUtterance(turn: 2), .beginHeldUtterance(turn: 3)],
        .eagerAwaitingReply: [.discardUtterance(turn: 2), .discardReply(turn: 2), .beginHeldUtterance(turn: 3)],
        .eagerHeld: [.discardUtterance(turn: 2), .stopPlayback(reply: 2), .beginHeldUtterance(turn: 3)],
        .concluding: [.beginHeldUtterance(turn: 3)],
    ]

    @Test(arguments: TurnSituation.allCases)
    func holdOpensATurnFromAnywhere(_ situation: TurnSituation) {
        var harness = situation.make()
        let action = harness.send { $0.hold() }
        #expect(action.effects == Self.holdEffects[situation])
        #expect(harness.machine.snapshot.phase == .hearing)
        #expect(!harness.machine.snapshot.muted)
        #expect(harness.machine.isKeyHeld)
        #expect(harness.send { $0.hold() } == .ignored(.keyHeld), "a key's auto-repeat changes nothing")
    }

    @Test func pausesInsideAHoldEndNothingAndTheReleaseEndsTheTurnAtOnce() {
        var harness = TurnSituation.listening.make()
        harness.send { $0.hold() }
        #expect(harness.send { $0.utteranceStarted() } == .ignored(.utteranceInProgress))
        #expect(harness.send { $0.utteranceMayHaveEnded() } == .ignored(.keyHeld))
        #expect(harness.send { $0.utteranceEnded() } == .ignored(.keyHeld))
        harness.clock.advance(by: .seconds(3))
        #expect(harness.send { $0.tick() } == .none)
        #expect(harness.send { $0.utteranceStarted() } == .ignored(.utteranceInProgress))
        #expect(harness.send { $0.finalTranscript(turn: 2, text: "early") } == .rejected(.utteranceNotEnded(turn: 2)))
        #expect(harness.phase == .hearing)

        let release = harness.send { $0.release() }
        #expect(release.effects == [.endHeldUtterance(turn: 2, .released), .endUtterance(turn: 2)])
        #expect(harness.phase == .thinking)
        #expect(harness.send { $0.utteranceEnded() } == .ignored(.noUtteranceInProgress))
        #expect(harness.send { $0.finalTranscript(turn: 2, text: "one long turn") }.effects == [
            .requestReply(turn: 2, transcript: "one long turn"),
        ])
    }

    @Test func aReleaseWithoutAHoldIsRefused() {
        for situation in [TurnSituation.idle, .listening, .hearing, .speaking] {
            var harness = situation.make()
            let before = harness.machine.snapshot
            #expect(harness.send { $0.release() } == .rejected(.notHeld))
            #expect(harness.machine.snapshot == before)
        }
    }

    @Test func aHoldWhoseReleaseNeverComesEndsAtTheLongestUtterance() {
        var harness = TurnSituation.listening.make()
        harness.send { $0.hold() }
        #expect(harness.machine.nextDeadline == harness.clock.now.advanced(by: .seconds(60)))
        harness.clock.advance(by: .seconds(60))
        #expect(harness.send { $0.tick() }.effects == [.endHeldUtterance(turn: 2, .limit), .endUtterance(turn: 2)])
        #expect(harness.phase == .thinking)
        #expect(harness.send { $0.release() } == .rejected(.notHeld))
    }

    @Test func pushToTalkWithVoiceModeOffGoesBackToOffAfterTheReply() {
        var harness = TurnSituation.idle.make()
        #expect(harness.send { $0.hold() }.effects == [.openMicrophone, .beginHeldUtterance(turn: 2)])
        #expect(harness.send { $0.release() }.effects == [
            .endHeldUtterance(turn: 2, .released), .endUtterance(turn: 2), .silenceMicrophone,
        ])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .thinking, turn: 2, muted: false))
        harness.send { $0.finalTranscript(turn: 2, text: "what time is it") }
        harness.send { $0.replyRequested(turn: 2, text: "noon") }
        harness.send { $0.playbackStarted(reply: 2) }
        #expect(harness.phase == .speaking)
        #expect(harness.send { $0.playbackFinished(reply: 2) }.effects == [.closeMicrophone])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .idle, turn: 2, muted: false))
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test func pushToTalkWhileMutedGoesBackToMuted() {
        var harness = TurnSituation.listeningMuted.make()
        #expect(harness.send { $0.hold() }.effects == [.openMicrophone, .beginHeldUtterance(turn: 2)])
        #expect(harness.machine.snapshot.muted == false)
        #expect(harness.send { $0.release() }.effects.last == .silenceMicrophone)
        let back = harness.send { $0.finalTranscript(turn: 2, text: "") }
        #expect(back.effects == [])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: true))
    }

    @Test func cancellingAHoldWhileOffTurnsTheMicrophoneOffAgain() {
        var harness = TurnSituation.idle.make()
        harness.send { $0.hold() }
        #expect(harness.send { $0.cancel() }.effects == [.discardUtterance(turn: 2), .closeMicrophone])
        #expect(harness.phase == .idle)
    }

    @Test func mutingAHoldDropsIt() {
        var on = TurnSituation.listening.make()
        on.send { $0.hold() }
        #expect(on.send { $0.mute() }.effects == [.silenceMicrophone, .discardUtterance(turn: 2)])
        #expect(on.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: true))

        var off = TurnSituation.idle.make()
        off.send { $0.hold() }
        #expect(off.send { $0.mute() }.effects == [.silenceMicrophone, .discardUtterance(turn: 2), .closeMicrophone])
        #expect(off.machine.snapshot == TurnSnapshot(phase: .idle, turn: 2, muted: false))
    }

    @Test func holdingAgainOverAOneShotReplyInterruptsItAndStillGoesBackToOff() {
        var harness = TurnSituation.idle.make()
        harness.send { $0.hold() }
        harness.send { $0.release() }
        harness.send { $0.finalTranscript(turn: 2, text: "tell me a story") }
        harness.send { $0.replyRequested(turn: 2, text: "once upon a time") }
        harness.send { $0.playbackStarted(reply: 2) }
        #expect(harness.send { $0.hold() }.effects == [.stopPlayback(reply: 2), .openMicrophone, .beginHeldUtterance(turn: 3)])
        #expect(harness.send { $0.release() }.effects.last == .silenceMicrophone)
        #expect(harness.send { $0.finalTranscript(turn: 3, text: "") }.effects == [.closeMicrophone])
        #expect(harness.phase == .idle)
    }

    @Test func talkListensForOneTurnThenGoesBackToOff() {
        var harness = TurnSituation.idle.make()
        #expect(harness.send { $0.talk() }.effects == [.openMicrophone])
        #expect(harness.phase == .listening)
        #expect(harness.send { $0.talk() } == .ignored(.alreadyListening))
        harness.send { $0.utteranceStarted() }
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 2), .silenceMicrophone])
        #expect(harness.send { $0.finalTranscript(turn: 2, text: "") }.effects == [.closeMicrophone])
        #expect(harness.phase == .idle)
    }

    @Test func talkGivesUpWhenNoSpeechComes() {
        var harness = TurnSituation.idle.make()
        harness.send { $0.talk() }
        let deadline = harness.clock.now.advanced(by: TurnMachine<ManualClock>.Configuration.standard.talkWait)
        #expect(harness.machine.nextDeadline == deadline)
        harness.clock.advance(to: deadline)
        #expect(harness.send { $0.tick() }.effects == [.closeMicrophone])
        #expect(harness.phase == .idle)

        var muted = TurnSituation.listeningMuted.make()
        #expect(muted.send { $0.talk() }.effects == [.openMicrophone])
        #expect(!muted.machine.snapshot.muted)
        muted.clock.advance(to: muted.machine.nextDeadline!)
        #expect(muted.send { $0.tick() }.effects == [.silenceMicrophone])
        #expect(muted.machine.snapshot == TurnSnapshot(phase: .listening, turn: 1, muted: true))
        #expect(muted.machine.nextDeadline == nil)
    }

    @Test func talkOverAReplyStopsItAndListens() {
        var harness = TurnSituation.speaking.make()
        #expect(harness.send { $0.talk() }.effects == [.stopPlayback(reply: 2)])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: false))
        #expect(harness.machine.nextDeadline == nil, "voice mode is on: it keeps listening")
        var hearing = TurnSituation.hearing.make()
        #expect(hearing.send { $0.talk() } == .ignored(.utteranceInProgress))
    }

    @Test func toggleTurnsVoiceModeOnAndOff() {
        var harness = TurnSituation.idle.make()
        #expect(harness.send { $0.toggle() }.effects == [.openMicrophone])
        #expect(harness.phase == .listening)
        #expect(harness.send { $0.toggle() }.effects == [.closeMicrophone])
        #expect(harness.phase == .idle)
        var speaking = TurnSituation.speaking.make()
        #expect(speaking.send { $0.toggle() }.effects == [.stopPlayback(reply: 2), .closeMicrophone])
    }

    @Test func startingVoiceModeDuringAOneShotKeepsItOnAfterwards() {
        var harness = TurnSituation.idle.make()
        harness.send { $0.hold() }
        harness.send { $0.release() }
        #expect(harness.send { $0.toggle() }.effects == [.openMicrophone], "a one-shot turn taken while off counts as off")
        #expect(harness.send { $0.finalTranscript(turn: 2, text: "") }.effects == [])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: false))
    }

    @Test func unmutingDuringAOneShotKeepsTheMicrophoneOpenAfterwards() {
        var harness = TurnSituation.listeningMuted.make()
        harness.send { $0.hold() }
        harness.send { $0.release() }
        #expect(harness.send { $0.unmute() }.effects == [.openMicrophone])
        #expect(harness.send { $0.finalTranscript(turn: 2, text: "") }.effects == [])
        #expect(harness.machine.snapshot == TurnSnapshot(phase: .listening, turn: 2, muted: false))
    }

    @Test func dismissDuringAOneShotTakenWhileOffPlaysNoCue() {
        var configuration = TurnMachine<ManualClock>.Configuration.standard
        configuration.playsCues = true
        var harness = TurnHarness(configuration: configuration)
        harness.send { $0.hold() }
        #expect(harness.send { $0.dismiss() }.effects == [.discardUtterance(turn: 1), .closeMicrophone])
    }
}
