@testable import EarshotTurns
import Testing

/// The answer to a turn is prepared from its eager end and heard only once its end is confirmed;
/// a person who goes on first drops it unheard.
@Suite("Eager end, confirmed end, resumed")
struct TurnMachineEagerEndTests {
    /// Voice mode on, the person speaking turn 1.
    static func hearing() -> TurnHarness {
        var harness = TurnHarness()
        harness.send { $0.start() }
        harness.send { $0.utteranceStarted() }
        return harness
    }

    @Test func aPreparedReplyPlaysTheMomentTheEndIsConfirmed() {
        var harness = Self.hearing()
        #expect(harness.send { $0.utteranceMayHaveEnded() }.effects == [.finalizeTranscript(turn: 1)])
        #expect(harness.send { $0.finalTranscript(turn: 1, text: "lights on") }.effects == [.requestReply(turn: 1, transcript: "lights on")])
        #expect(harness.send { $0.replyRequested(turn: 1, text: "Done.") }.effects == [.prepareSpeech(reply: 1, text: "Done.")])
        #expect(harness.phase == .hearing)
        #expect(harness.machine.replyInFlight == 1)

        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 1), .releasePlayback(reply: 1)])
        #expect(harness.phase == .thinking)
        harness.send { $0.playbackStarted(reply: 1) }
        #expect(harness.phase == .speaking)
        harness.send { $0.playbackFinished(reply: 1) }
        #expect(harness.phase == .listening)
    }

    @Test func aResumedTurnDropsItsPreparedReplyUnheardAndGoesOnWhole() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.finalTranscript(turn: 1, text: "move my dentist appointment") }
        harness.send { $0.replyRequested(turn: 1, text: "To when?", continues: true) }

        let resumed = harness.send { $0.utteranceResumed() }
        #expect(resumed.effects == [.stopPlayback(reply: 1), .discardReply(turn: 1), .continueUtterance(from: 1, turn: 2)])
        #expect(harness.phase == .hearing && harness.turn == 2)
        #expect(harness.machine.replyInFlight == nil)

        // What the dropped turn still had on its way is stale.
        #expect(harness.send { $0.finalTranscript(turn: 1, text: "move my dentist appointment") } == .ignored(.staleTranscript(turn: 1)))
        #expect(harness.send { $0.replyRequested(turn: 1, text: "To when?") } == .ignored(.staleReply(turn: 1)))
        #expect(harness.send { $0.replyContinued(reply: 1, text: "Soon?", continues: false) } == .ignored(.staleReplyText(reply: 1)))
        #expect(harness.send { $0.playbackFinished(reply: 1) } == .ignored(.stalePlayback(reply: 1)))

        // The utterance goes on, and its next eager end asks for the whole of it.
        #expect(harness.send { $0.utteranceMayHaveEnded() }.effects == [.finalizeTranscript(turn: 2)])
        let whole = "move my dentist appointment to next tuesday"
        #expect(harness.send { $0.finalTranscript(turn: 2, text: whole) }.effects == [.requestReply(turn: 2, transcript: whole)])
        #expect(harness.send { $0.replyRequested(turn: 2, text: "Moved.") }.effects == [.prepareSpeech(reply: 2, text: "Moved.")])
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 2), .releasePlayback(reply: 2)])
    }

    @Test func anEndConfirmedBeforeTheTranscriptAsksForNothingTwice() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 1)])
        #expect(harness.phase == .thinking)
        #expect(harness.send { $0.finalTranscript(turn: 1, text: "lights on") }.effects == [.requestReply(turn: 1, transcript: "lights on")])
        // Confirmed, the reply plays as soon as it is made.
        #expect(harness.send { $0.replyRequested(turn: 1, text: "Done.") }.effects == [.synthesize(reply: 1, text: "Done.")])
    }

    @Test func anEndConfirmedWhileTheReplyIsAwaitedWaitsForItFromThen() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.finalTranscript(turn: 1, text: "lights on") }
        harness.clock.advance(by: .seconds(2))
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 1)])
        #expect(harness.machine.nextDeadline == harness.clock.now.advanced(by: .seconds(15)))
        #expect(harness.send { $0.replyRequested(turn: 1, text: "Done.") }.effects == [.synthesize(reply: 1, text: "Done.")])
    }

    @Test func theEagerEndKeepsTheUtterancesDeadline() {
        var harness = Self.hearing()
        let utteranceDeadline = harness.machine.nextDeadline
        harness.clock.advance(by: .seconds(3))
        harness.send { $0.utteranceMayHaveEnded() }
        #expect(harness.machine.nextDeadline == utteranceDeadline)
        harness.send { $0.utteranceResumed() }
        #expect(harness.machine.nextDeadline == utteranceDeadline)
    }

    @Test func aHeldReplyTakesItsResponderTextUnheard() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.finalTranscript(turn: 1, text: "tell me a story") }
        harness.send { $0.replyRequested(turn: 1, text: "Once upon a time,", continues: true) }
        let more = harness.send { $0.replyContinued(reply: 1, text: "there was a fox.", continues: false) }
        #expect(more.effects == [.continueSpeech(reply: 1, text: "there was a fox.", continues: false)])
        #expect(harness.phase == .hearing)
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 1), .releasePlayback(reply: 1)])
    }

    @Test func nothingToSayShowsTheEndDecidedThenListens() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.finalTranscript(turn: 1, text: "") }
        #expect(harness.phase == .hearing)
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 1)])
        #expect(harness.phase == .thinking)
        #expect(harness.send { $0.tick() } != .none)
        #expect(harness.phase == .listening)
    }

    @Test func aHeldReplyThatGivesNoAudioLeavesNothingToPlay() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.finalTranscript(turn: 1, text: "lights on") }
        harness.send { $0.replyRequested(turn: 1, text: "Done.") }
        harness.send { $0.playbackFinished(reply: 1) }
        #expect(harness.send { $0.utteranceEnded() }.effects == [.endUtterance(turn: 1)])
        harness.send { $0.tick() }
        #expect(harness.phase == .listening)
    }

    @Test func aTranscriberFailureAtTheEagerEndIsShownOnceTheEndIsConfirmed() {
        var harness = Self.hearing()
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.transcriptionFailed(turn: 1) }
        #expect(harness.phase == .hearing)
        harness.send { $0.utteranceEnded() }
        #expect(harness.machine.snapshot.error == .transcriberUnavailable(turn: 1))
    }
}
