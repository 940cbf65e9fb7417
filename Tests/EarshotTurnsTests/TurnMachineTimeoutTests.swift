import EarshotTurns
import Testing

@Suite("Timeouts on a manual clock")
struct TurnMachineTimeoutTests {
    /// Distinct values so a deadline computed from the wrong timeout shows.
    static let configuration = TurnMachine<ManualClock>.Configuration(
        minimumInterruption: .milliseconds(300),
        falseInterruptionSilence: .milliseconds(80),
        maximumUtterance: .seconds(20),
        talkWait: .seconds(5),
        transcriptTimeout: .seconds(2),
        replyTimeout: .seconds(7),
        playbackStartTimeout: .seconds(3),
        maximumPlayback: .seconds(40)
    )

    /// Checks the machine's deadline is `expected` after `reference`, that a tick a nanosecond
    /// early does nothing, and returns the tick at the deadline.
    static func tickAtDeadline(
        _ harness: inout TurnHarness, expected: Duration, after reference: ManualClock.Instant,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TurnAction {
        let deadline = reference.advanced(by: expected)
        #expect(harness.machine.nextDeadline == deadline, sourceLocation: sourceLocation)
        harness.clock.advance(to: deadline.advanced(by: .nanoseconds(-1)))
        #expect(harness.send { $0.tick() } == .none, sourceLocation: sourceLocation)
        harness.clock.advance(to: deadline)
        return harness.send { $0.tick() }
    }

    static func started() -> TurnHarness {
        var harness = TurnHarness(configuration: configuration)
        harness.send { $0.start() }
        harness.clock.advance(by: .seconds(1))
        return harness
    }

    @Test func restingPhasesHaveNoDeadline() {
        var harness = TurnHarness(configuration: Self.configuration)
        #expect(harness.machine.nextDeadline == nil)
        harness.send { $0.start() }
        #expect(harness.machine.nextDeadline == nil)
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.send { $0.tick() } == .none)
        #expect(harness.phase == .listening)
    }

    @Test func overLongUtteranceIsEnded() {
        var harness = Self.started()
        let spokeAt = harness.clock.now
        harness.send { $0.utteranceStarted() }
        let action = Self.tickAtDeadline(&harness, expected: .seconds(20), after: spokeAt)
        #expect(action.effects == [.endUtterance(turn: 1)])
        #expect(harness.phase == .thinking)
        #expect(harness.machine.nextDeadline == harness.clock.now.advanced(by: .seconds(2)))
        #expect(harness.send { $0.utteranceEnded() } == .ignored(.noUtteranceInProgress))
    }

    @Test func missingTranscriptReturnsToListeningWithError() {
        var harness = Self.started()
        harness.send { $0.utteranceStarted() }
        let endedAt = harness.clock.now
        harness.send { $0.utteranceEnded() }
        let action = Self.tickAtDeadline(&harness, expected: .seconds(2), after: endedAt)
        #expect(action.effects == [.reportError(.transcriptTimedOut(turn: 1))])
        let expected = TurnSnapshot(phase: .listening, turn: 1, muted: false, error: .transcriptTimedOut(turn: 1))
        #expect(harness.machine.snapshot == expected)
        #expect(harness.send { $0.finalTranscript(turn: 1, text: "too late") } == .ignored(.staleTranscript(turn: 1)))
    }

    @Test func missingReplyReturnsToListeningWithError() {
        var harness = Self.started()
        harness.send { $0.utteranceStarted() }
        harness.send { $0.utteranceEnded() }
        harness.clock.advance(by: .milliseconds(400))
        let transcribedAt = harness.clock.now
        harness.send { $0.finalTranscript(turn: 1, text: "tell me a joke") }
        let action = Self.tickAtDeadline(&harness, expected: .seconds(7), after: transcribedAt)
        #expect(action.effects == [.discardReply(turn: 1), .reportError(.replyTimedOut(turn: 1))])
        #expect(harness.machine.snapshot.error == .replyTimedOut(turn: 1))
        #expect(harness.send { $0.replyRequested(turn: 1, text: "too late") } == .ignored(.staleReply(turn: 1)))
    }

    @Test func synthesisThatNeverPlaysIsAbandoned() {
        var harness = Self.started()
        let requestedAt = harness.clock.now
        harness.send { $0.replyRequested(turn: nil, text: "reminder") }
        let action = Self.tickAtDeadline(&harness, expected: .seconds(3), after: requestedAt)
        #expect(action.effects == [.stopPlayback(reply: 1), .reportError(.playbackDidNotStart(turn: 0))])
        #expect(harness.phase == .listening)
        #expect(harness.send { $0.playbackStarted(reply: 1) } == .ignored(.stalePlayback(reply: 1)))
    }

    @Test func playbackThatNeverFinishesIsStopped() {
        var harness = Self.started()
        harness.send { $0.replyRequested(turn: nil, text: "reminder") }
        harness.clock.advance(by: .seconds(1))
        let startedAt = harness.clock.now
        harness.send { $0.playbackStarted(reply: 1) }
        let action = Self.tickAtDeadline(&harness, expected: .seconds(40), after: startedAt)
        #expect(action.effects == [.stopPlayback(reply: 1), .reportError(.playbackTimedOut(turn: 0))])
        #expect(harness.machine.snapshot.error == .playbackTimedOut(turn: 0))
    }

    /// Speech heard every 10 ms, with a tick after each, until `until`; the last tick's action.
    static func keepSpeaking(_ harness: inout TurnHarness, until end: ManualClock.Instant) -> TurnAction {
        var last = TurnAction.none
        while harness.clock.now < end {
            harness.clock.advance(by: .milliseconds(10))
            harness.send { $0.speechHeard() }
            last = harness.send { $0.tick() }
            if last != .none { break }
        }
        return last
    }

    @Test func sustainedInterruptionIsConfirmedAndTimedFromItsStart() {
        var harness = Self.started()
        harness.send { $0.replyRequested(turn: nil, text: "a long story") }
        harness.send { $0.playbackStarted(reply: 1) }
        harness.clock.advance(by: .seconds(5))
        let interruptedAt = harness.clock.now
        #expect(harness.send { $0.utteranceStarted() }.effects == [.pausePlayback(reply: 1)])
        let action = Self.keepSpeaking(&harness, until: interruptedAt.advanced(by: .milliseconds(400)))
        #expect(harness.clock.now == interruptedAt.advanced(by: .milliseconds(300)), "confirmed at the minimum")
        #expect(action.effects == [.announceSpeech, .stopPlayback(reply: 1), .beginUtterance(turn: 1)])
        #expect(harness.phase == .hearing)
        #expect(harness.machine.nextDeadline == interruptedAt.advanced(by: .seconds(20)))
    }

    @Test func falseInterruptionKeepsThePlaybackWatchdog() {
        var harness = Self.started()
        harness.send { $0.replyRequested(turn: nil, text: "a long story") }
        let startedAt = harness.clock.now
        harness.send { $0.playbackStarted(reply: 1) }
        harness.clock.advance(by: .seconds(10))
        let interruptedAt = harness.clock.now
        harness.send { $0.utteranceStarted() }
        #expect(Self.keepSpeaking(&harness, until: interruptedAt.advanced(by: .milliseconds(200))) == .none)
        #expect(harness.send { $0.utteranceEnded() }.effects == [.resumePlayback(reply: 1)])
        #expect(harness.phase == .speaking)
        #expect(harness.machine.nextDeadline == startedAt.advanced(by: .seconds(40)))
    }

    @Test func aBurstThatFallsSilentIsAFalseAlarmAfterTheSilence() {
        var harness = Self.started()
        harness.send { $0.replyRequested(turn: nil, text: "a long story") }
        harness.send { $0.playbackStarted(reply: 1) }
        harness.clock.advance(by: .seconds(2))
        harness.send { $0.utteranceStarted() }
        for _ in 0..<5 {
            harness.clock.advance(by: .milliseconds(10))
            #expect(harness.send { $0.speechHeard() } == .none)
            #expect(harness.send { $0.tick() } == .none)
        }
        let lastHeard = harness.clock.now
        #expect(harness.machine.nextDeadline == lastHeard.advanced(by: .milliseconds(80)))
        harness.clock.advance(by: .milliseconds(70))
        #expect(harness.send { $0.tick() } == .none, "70 ms of silence is a pause, not the end")
        harness.clock.advance(by: .milliseconds(10))
        #expect(harness.send { $0.tick() }.effects == [.resumePlayback(reply: 1)])
        #expect(harness.phase == .speaking)
    }

    @Test func anInterruptionIsConfirmedOnlyWhileThePersonStillSpeaks() {
        var harness = Self.started()
        harness.send { $0.replyRequested(turn: nil, text: "a long story") }
        harness.send { $0.playbackStarted(reply: 1) }
        harness.clock.advance(by: .seconds(2))
        let interruptedAt = harness.clock.now
        harness.send { $0.utteranceStarted() }
        harness.clock.advance(to: interruptedAt.advanced(by: .milliseconds(250)))
        harness.send { $0.speechHeard() }
        harness.clock.advance(to: interruptedAt.advanced(by: .milliseconds(300)))
        #expect(harness.send { $0.tick() } == .none, "silent for 50 ms at the minimum: not confirmed yet")
        harness.clock.advance(by: .milliseconds(10))
        harness.send { $0.speechHeard() }
        let action = harness.send { $0.tick() }
        #expect(action.effects == [.announceSpeech, .stopPlayback(reply: 1), .beginUtterance(turn: 1)], "speaking again: confirmed")
        #expect(harness.phase == .hearing)
    }

    @Test func speechHeardOutsideASuspectedInterruptionDoesNothing() {
        var harness = Self.started()
        #expect(!harness.machine.awaitsSpeech)
        #expect(harness.send { $0.speechHeard() } == .none)
        harness.send { $0.utteranceStarted() }
        #expect(!harness.machine.awaitsSpeech)
        #expect(harness.send { $0.speechHeard() } == .none)
        #expect(harness.phase == .hearing)
    }

    @Test func onlyASuspectedInterruptionAwaitsSpeech() {
        var harness = Self.started()
        harness.send { $0.replyRequested(turn: nil, text: "a long story") }
        harness.send { $0.playbackStarted(reply: 1) }
        #expect(!harness.machine.awaitsSpeech, "speaking, nobody interrupting")
        harness.send { $0.utteranceStarted() }
        #expect(harness.machine.awaitsSpeech, "suspected: each frame of speech counts")
        harness.send { $0.utteranceEnded() }
        #expect(!harness.machine.awaitsSpeech, "a false alarm: speaking again")
        #expect(harness.phase == .speaking)
    }

    @Test func errorStaysUntilTheUserSpeaks() {
        var harness = Self.started()
        harness.send { $0.utteranceStarted() }
        harness.send { $0.utteranceEnded() }
        harness.clock.advance(by: .seconds(2))
        harness.send { $0.tick() }
        harness.send { $0.mute() }
        #expect(harness.machine.snapshot.error == .transcriptTimedOut(turn: 1))
        harness.send { $0.unmute() }
        harness.send { $0.utteranceStarted() }
        #expect(harness.machine.snapshot.error == nil)
    }

    @Test func standardTimeoutsAreThoseDocumented() {
        let standard = TurnMachine<ContinuousClock>.Configuration.standard
        #expect(standard.minimumInterruption == .milliseconds(300))
        #expect(standard.maximumUtterance == .seconds(60))
        #expect(standard.transcriptTimeout == .seconds(5))
        #expect(standard.replyTimeout == .seconds(15))
        #expect(standard.playbackStartTimeout == .seconds(10))
        #expect(standard.maximumPlayback == .seconds(300))
        #expect(TurnMachine(clock: ContinuousClock()).configuration == standard)
    }
}
