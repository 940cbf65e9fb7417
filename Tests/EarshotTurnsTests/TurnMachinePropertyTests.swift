import EarshotTurns
import PropertyBased
import Testing

/// Properties over random input sequences (including clock advances) from a started machine.
///
/// Stalling, precisely: a machine *stalls* if it can wait forever for a peer, that is if it is
/// in a non-resting phase (anything but `idle` or `listening`) and either has no
/// `nextDeadline`, or a `tick()` at that deadline does not move it. Hearing and speaking are
/// legitimate waits only because each has a deadline ahead. The test: from any reachable state,
/// advancing the clock to each `nextDeadline` and ticking reaches a resting phase within three
/// ticks (the longest chain is suspected barge-in → hearing → thinking → listening).
@Suite("Properties of random input sequences")
struct TurnMachinePropertyTests {
    static let sequenceCount = 300

    /// Starts a machine, sends `steps`, and calls `check(before, action, after)` after each.
    @discardableResult
    static func run(
        _ steps: [TurnStep], check: (TurnHarness, TurnAction, TurnHarness) -> Void = { _, _, _ in }
    ) -> TurnHarness {
        var harness = TurnHarness()
        harness.send { $0.start() }
        for step in steps {
            let before = harness
            let action = step.send(to: &harness)
            check(before, action, harness)
        }
        return harness
    }

    @Test func actionsDescribeExactlyWhatChanged() async {
        await propertyCheck(count: Self.sequenceCount, input: TurnStep.sequences) { steps in
            Self.run(steps) { before, action, after in
                if case .transition(let transition) = action {
                    #expect(transition.from == before.machine.snapshot)
                    #expect(transition.to == after.machine.snapshot)
                } else {
                    #expect(after.machine.snapshot == before.machine.snapshot)
                    #expect(after.machine.replyInFlight == before.machine.replyInFlight)
                }
            }
        }
    }

    @Test func turnNumbersNeverDecreaseAndRiseOnlyWithAnUtterance() async {
        await propertyCheck(count: Self.sequenceCount, input: TurnStep.sequences) { steps in
            Self.run(steps) { before, action, after in
                #expect(after.turn >= before.turn)
                #expect(after.latestReply >= before.latestReply)
                if after.turn != before.turn {
                    #expect(after.turn == before.turn + 1)
                    #expect(action.effects.contains(.beginUtterance(turn: after.turn)))
                }
            }
        }
    }

    @Test func controlsAlwaysMatchThePhase() async {
        await propertyCheck(count: Self.sequenceCount, input: TurnStep.sequences) { steps in
            Self.run(steps) { _, _, after in
                let snapshot = after.machine.snapshot
                let controls = snapshot.controls
                if snapshot.phase == .idle {
                    #expect(controls.isEmpty)
                    #expect(!snapshot.muted)
                } else {
                    #expect(controls.contains(.dismiss))
                    #expect(controls.contains(.mute) != snapshot.muted)
                    #expect(controls.contains(.unmute) == snapshot.muted)
                }
                #expect(controls.contains(.stop) == (snapshot.phase == .speaking))
                #expect(controls.contains(.cancel) == [.hearing, .thinking].contains(snapshot.phase))
                #expect(snapshot.error == nil || snapshot.phase == .listening)
            }
        }
    }

    @Test func dismissFromAnywhereReachesIdle() async {
        await propertyCheck(count: Self.sequenceCount, input: TurnStep.sequences) { steps in
            Self.run(steps) { _, _, after in
                var dismissed = after.machine
                let action = dismissed.dismiss()
                #expect(dismissed.snapshot == TurnSnapshot(phase: .idle, turn: after.turn, muted: false))
                #expect(dismissed.nextDeadline == nil)
                #expect(dismissed.replyInFlight == nil)
                guard after.phase != .idle else {
                    #expect(action == .rejected(.voiceModeOff))
                    return
                }
                #expect(action.effects.contains(.closeMicrophone) != after.machine.snapshot.muted)
                if let reply = after.machine.replyInFlight {
                    #expect(action.effects.contains(.stopPlayback(reply: reply)))
                }
                if after.phase == .hearing {
                    #expect(action.effects.contains(.discardUtterance(turn: after.turn)))
                }
            }
        }
    }

    @Test func onlyRestingPhasesWaitWithoutADeadline() async {
        await propertyCheck(count: Self.sequenceCount, input: TurnStep.sequences) { steps in
            Self.run(steps) { _, _, after in
                let resting = [.idle, .listening].contains(after.phase)
                #expect((after.machine.nextDeadline == nil) == resting)
                var early = after.machine
                if let deadline = early.nextDeadline, after.clock.now < deadline {
                    #expect(early.tick() == .none)
                    #expect(early.snapshot == after.machine.snapshot)
                }
            }
        }
    }

    @Test func neverStalls() async {
        await propertyCheck(count: Self.sequenceCount, input: TurnStep.sequences) { steps in
            var harness = Self.run(steps)
            var ticks = 0
            while let deadline = harness.machine.nextDeadline, ticks < 3 {
                harness.clock.advance(to: deadline)
                let action = harness.send { $0.tick() }
                ticks += 1
                guard case .transition = action else {
                    Issue.record("tick at the deadline did nothing in \(harness.phase)")
                    return
                }
            }
            #expect([.idle, .listening].contains(harness.phase))
            #expect(harness.machine.nextDeadline == nil)
        }
    }
}
