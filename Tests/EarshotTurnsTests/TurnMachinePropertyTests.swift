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
                    let began = action.effects.contains(.beginUtterance(turn: after.turn))
                        || action.effects.contains(.beginHeldUtterance(turn: after.turn))
                    #expect(began)
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
                #expect(action.effects.contains(.closeMicrophone))
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
                // `listening` has a deadline only while a one-shot `talk` waits for speech.
                let resting = [.idle, .listening].contains(after.phase)
                if !resting { #expect(after.machine.nextDeadline != nil) }
                if after.phase == .idle { #expect(after.machine.nextDeadline == nil) }
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

/// One random input for the property tests. Numbers are offsets from the machine's current
/// turn or latest reply, so random transcripts, replies and playback events often hit the
/// live one and otherwise exercise the stale and unknown paths.
struct TurnStep: Sendable, CustomStringConvertible {
    enum Kind: CaseIterable, Sendable {
        case start, dismiss, mute, unmute, utteranceStarted, utteranceEnded, bargeInConfirmed
        case transcript, emptyTranscript, reply, emptyReply, unpromptedReply
        case playbackStarted, playbackFinished, stop, cancel, tick
        case hold, release, talk, toggle
        /// Time passes with no tick, as when the pipeline lags.
        case advanceClock
        /// Time passes and then the pipeline ticks, as it does every audio frame.
        case wait
    }

    var kind: Kind
    var offset: Int
    /// 1 ms to about 9 minutes on a logarithmic scale, so both short and timeout-sized gaps occur.
    var clockAdvance: Duration

    /// Each kind repeated by how often it is drawn: the flow of a conversation (speech,
    /// transcripts, replies, playback, time) is common; leaving voice mode is rare, so
    /// sequences spend their length in the active phases rather than in `idle`.
    static let weightedKinds: [Kind] = {
        let weights: [(Kind, Int)] = [
            (.start, 2), (.dismiss, 1), (.mute, 1), (.unmute, 2), (.utteranceStarted, 2), (.utteranceEnded, 3),
            (.bargeInConfirmed, 1), (.transcript, 4), (.emptyTranscript, 1), (.reply, 4), (.emptyReply, 1),
            (.unpromptedReply, 2), (.playbackStarted, 5), (.playbackFinished, 2), (.stop, 1), (.cancel, 1),
            (.tick, 3), (.advanceClock, 2), (.wait, 4), (.hold, 2), (.release, 2), (.talk, 1), (.toggle, 1),
        ]
        return weights.flatMap { kind, weight in Array(repeating: kind, count: weight) }
    }()

    /// Offsets of 2 and above fold onto 0, making the live turn or reply the likeliest target.
    static var generator: Generator<TurnStep, some Sequence & SendableMetatype> {
        let kinds = weightedKinds
        return zip(Gen.int(in: 0...(kinds.count - 1)), Gen.int(in: -2...5), Gen.int(in: 0...19)).map { drawn in
            TurnStep(kind: kinds[drawn.0], offset: drawn.1 > 1 ? 0 : drawn.1, clockAdvance: .milliseconds(1 << drawn.2))
        }
    }

    static var sequences: Generator<[TurnStep], some Sequence & SendableMetatype> {
        generator.array(of: 0...80)
    }

    var description: String {
        switch kind {
        case .transcript, .emptyTranscript, .reply, .emptyReply: "\(kind)(turn\(signed))"
        case .playbackStarted, .playbackFinished: "\(kind)(reply\(signed))"
        case .advanceClock: "advance(\(clockAdvance))"
        case .wait: "wait(\(clockAdvance))"
        default: "\(kind)"
        }
    }

    private var signed: String {
        offset < 0 ? "\(offset)" : "+\(offset)"
    }

    /// Gives the step to the machine; a bare clock advance is not an input and answers `.none`.
    func send(to harness: inout TurnHarness) -> TurnAction {
        let turn = harness.turn + offset
        let reply = harness.latestReply + offset
        switch kind {
        case .start: return harness.send { $0.start() }
        case .dismiss: return harness.send { $0.dismiss() }
        case .mute: return harness.send { $0.mute() }
        case .unmute: return harness.send { $0.unmute() }
        case .utteranceStarted: return harness.send { $0.utteranceStarted() }
        case .utteranceEnded: return harness.send { $0.utteranceEnded() }
        case .bargeInConfirmed: return harness.send { $0.bargeInConfirmed() }
        case .transcript: return harness.send { $0.finalTranscript(turn: turn, text: "words") }
        case .emptyTranscript: return harness.send { $0.finalTranscript(turn: turn, text: "") }
        case .reply: return harness.send { $0.replyRequested(turn: turn, text: "answer") }
        case .emptyReply: return harness.send { $0.replyRequested(turn: turn, text: "") }
        case .unpromptedReply: return harness.send { $0.replyRequested(turn: nil, text: "notice") }
        case .playbackStarted: return harness.send { $0.playbackStarted(reply: reply) }
        case .playbackFinished: return harness.send { $0.playbackFinished(reply: reply) }
        case .stop: return harness.send { $0.stop() }
        case .cancel: return harness.send { $0.cancel() }
        case .tick: return harness.send { $0.tick() }
        case .hold: return harness.send { $0.hold() }
        case .release: return harness.send { $0.release() }
        case .talk: return harness.send { $0.talk() }
        case .toggle: return harness.send { $0.toggle() }
        case .advanceClock:
            harness.clock.advance(by: clockAdvance)
            return .none
        case .wait:
            harness.clock.advance(by: clockAdvance)
            return harness.send { $0.tick() }
        }
    }
}
