import EarshotTurns
import Testing

/// Speech soon after the person's silence ended a turn, while its answer is pending or playing,
/// goes on with that turn: the silence was a pause in the middle of a sentence.
@Suite("Rejoining a turn its pause ended")
struct TurnMachineRejoinTests {
    /// A machine with the standard timeouts (a rejoin window of 1.2 s) whose turn 1 was just
    /// ended by the person's silence.
    static func endedTurn() -> TurnHarness {
        var harness = TurnHarness(configuration: .standard)
        harness.send { $0.start() }
        harness.send { $0.utteranceStarted() }
        harness.send { $0.utteranceEnded() }
        return harness
    }

    /// ``endedTurn()`` transcribed as `transcript`, its reply 1 (`reply`) playing.
    static func playing(_ transcript: String, reply: String) -> TurnHarness {
        var harness = endedTurn()
        harness.send { $0.finalTranscript(turn: 1, text: transcript) }
        harness.send { $0.replyRequested(turn: 1, text: reply) }
        harness.send { $0.playbackStarted(reply: 1) }
        return harness
    }

    @Test func speechWhileTheTranscriptIsDueGoesOnWithTheTurn() {
        var harness = Self.endedTurn()
        harness.clock.advance(by: .milliseconds(900))
        let resumed = harness.send { $0.utteranceStarted() }
        #expect(resumed.effects == [.announceSpeech, .discardUtterance(turn: 1), .rejoinUtterance(from: 1, turn: 2), .beginUtterance(turn: 2)])
        #expect(harness.phase == .hearing)
        #expect(harness.send { $0.finalTranscript(turn: 1, text: "set an alarm for") } == .ignored(.staleTranscript(turn: 1)))
    }

    @Test func speechWhileTheReplyIsAwaitedCancelsItAndGoesOn() {
        var harness = Self.endedTurn()
        harness.send { $0.finalTranscript(turn: 1, text: "set an alarm for") }
        harness.clock.advance(by: .milliseconds(400))
        let resumed = harness.send { $0.utteranceStarted() }
        #expect(resumed.effects == [.announceSpeech, .discardReply(turn: 1), .rejoinUtterance(from: 1, turn: 2), .beginUtterance(turn: 2)])
    }

    @Test func aBargeInSoonAfterTheEndStopsTheReplyAndGoesOn() {
        var harness = Self.playing("set an alarm for", reply: "Okay.")
        harness.clock.advance(by: .milliseconds(700))
        #expect(harness.send { $0.onsetSuspected() }.effects == [.pausePlayback(reply: 1)])
        harness.send { $0.utteranceStarted() }
        harness.clock.advance(by: .milliseconds(300))
        harness.send { $0.speechHeard() }
        let confirmed = harness.send { $0.tick() }
        #expect(confirmed.effects == [.announceSpeech, .stopPlayback(reply: 1), .rejoinUtterance(from: 1, turn: 2), .beginUtterance(turn: 2)])
    }

    @Test func speechAfterTheWindowIsANewTurn() {
        var harness = Self.playing("what time is it", reply: "It is noon, and the sun is high.")
        harness.clock.advance(by: .milliseconds(1500))
        harness.send { $0.onsetSuspected() }
        let confirmed = harness.send { $0.bargeInConfirmed() }
        #expect(confirmed.effects == [.stopPlayback(reply: 1), .beginUtterance(turn: 2)])
    }

    @Test func speechAfterTheReplyEndedIsANewTurn() {
        var harness = Self.playing("yes", reply: "Okay.")
        harness.send { $0.playbackFinished(reply: 1) }
        harness.clock.advance(by: .milliseconds(300))
        #expect(harness.send { $0.utteranceStarted() }.effects == [.announceSpeech, .beginUtterance(turn: 2)])
    }

    @Test func anEagerEndConfirmedByTheSilenceCanBeRejoined() {
        var harness = TurnHarness(configuration: .standard)
        harness.send { $0.start() }
        harness.send { $0.utteranceStarted() }
        harness.send { $0.utteranceMayHaveEnded() }
        harness.send { $0.finalTranscript(turn: 1, text: "set the oven to") }
        harness.send { $0.utteranceEnded() }
        harness.clock.advance(by: .milliseconds(600))
        let resumed = harness.send { $0.utteranceStarted() }
        #expect(resumed.effects == [.announceSpeech, .discardReply(turn: 1), .rejoinUtterance(from: 1, turn: 2), .beginUtterance(turn: 2)])
    }

    @Test func aTurnEndedByTheTalkKeyIsNeverRejoined() {
        var harness = TurnHarness(configuration: .standard)
        harness.send { $0.start() }
        harness.send { $0.hold() }
        harness.send { $0.release() }
        #expect(harness.phase == .thinking)
        let next = harness.send { $0.utteranceStarted() }
        #expect(!next.effects.contains { if case .rejoinUtterance = $0 { true } else { false } })
    }

    @Test func noWindowNoRejoin() {
        var harness = TurnHarness(configuration: TurnHarness.tables)
        harness.send { $0.start() }
        harness.send { $0.utteranceStarted() }
        harness.send { $0.utteranceEnded() }
        #expect(harness.send { $0.utteranceStarted() }.effects == [.announceSpeech, .discardUtterance(turn: 1), .beginUtterance(turn: 2)])
    }
}
