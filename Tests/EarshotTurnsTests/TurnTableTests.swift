@testable import EarshotTurns
import Testing

@Suite("Every phase × every input")
struct TurnTableTests {
    @Test("The table covers every situation × input exactly once")
    func tableIsComplete() {
        let cells = TurnTable.rows.map { "\($0.situation.rawValue)+\($0.input.rawValue)" }
        #expect(Set(cells).count == cells.count)
        #expect(cells.count == TurnSituation.allCases.count * TurnTableInput.allCases.count)
    }

    @Test("Each situation starts in the phase it names")
    func situationsReachTheirPhase() {
        let expected: [TurnSituation: TurnPhase] = [
            .idle: .idle, .listening: .listening, .listeningMuted: .listening, .hearing: .hearing,
            .transcribing: .thinking, .awaitingReply: .thinking, .preparingSpeech: .thinking,
            .speaking: .speaking, .bargeInSuspected: .speaking,
            .eagerTranscribing: .hearing, .eagerAwaitingReply: .hearing, .eagerHeld: .hearing, .concluding: .thinking,
        ]
        for situation in TurnSituation.allCases {
            #expect(situation.make().phase == expected[situation], "\(situation)")
        }
    }

    @Test(arguments: TurnTable.rows)
    func row(_ row: TurnTableRow) {
        var harness = row.situation.make()
        let before = harness.machine.snapshot
        let action = row.input.send(to: &harness)

        #expect(harness.phase == row.phase)
        #expect(TurnOutcome(action) == row.outcome)
        if case .transition(let transition) = action {
            #expect(transition.from == before)
            #expect(transition.to == harness.machine.snapshot)
        } else {
            #expect(harness.machine.snapshot == before)
        }
    }
}

/// One cell of the phase × input table: where the machine starts, what it is given,
/// the phase it must end in and what it must answer.
struct TurnTableRow: Sendable, CustomTestStringConvertible {
    var situation: TurnSituation
    var input: TurnTableInput
    var phase: TurnPhase
    var outcome: TurnOutcome

    init(_ situation: TurnSituation, _ input: TurnTableInput, _ phase: TurnPhase, _ outcome: TurnOutcome) {
        self.situation = situation
        self.input = input
        self.phase = phase
        self.outcome = outcome
    }

    var testDescription: String {
        "\(situation.rawValue) + \(input.rawValue) → \(phase.rawValue), \(outcome)"
    }
}

/// Every input the machine takes, with the parameters the table uses.
enum TurnTableInput: String, CaseIterable, Sendable {
    case start, dismiss, mute, unmute
    case utteranceStarted, utteranceEnded, bargeInConfirmed
    /// Speech heard in the latest frame, no time passed.
    case speechHeard
    /// A final transcript for the current turn.
    case transcript
    /// A whitespace-only final transcript for the current turn.
    case emptyTranscript
    /// A final transcript for the warm-up turn 1.
    case staleTranscript
    /// A reply to the current turn.
    case reply
    case unpromptedReply
    /// A reply to the warm-up turn 1.
    case staleReply
    /// Playback events for the latest reply handed out.
    case playbackStarted, playbackFinished
    case stop, cancel
    /// A tick with no time passed.
    case tick
    /// A tick after the clock passed every timeout.
    case tickAfterTimeout
    /// A voice preview, and a playback report for one.
    case preview, previewPlayback
    /// Speech that may be starting, and its rejection.
    case onsetSuspected, onsetRejected
    /// More text for the latest reply handed out.
    case replyText
    /// The endpointer's eager end, and speech resuming after it.
    case eagerEnd, resumed

    static let unpromptedText = "your timer is done"
    static let previewText = "Hi, I'm Cove."
    static let previewVoice = "cove"
    /// A preview in voice mode: an unprompted reply, in the previewed voice.
    static let previewAsReply = TurnEffect.synthesize(reply: 2, text: previewText, voice: previewVoice)

    func send(to harness: inout TurnHarness) -> TurnAction {
        let turn = harness.turn
        let reply = harness.latestReply
        switch self {
        case .start: return harness.send { $0.start() }
        case .dismiss: return harness.send { $0.dismiss() }
        case .mute: return harness.send { $0.mute() }
        case .unmute: return harness.send { $0.unmute() }
        case .utteranceStarted: return harness.send { $0.utteranceStarted() }
        case .utteranceEnded: return harness.send { $0.utteranceEnded() }
        case .bargeInConfirmed: return harness.send { $0.bargeInConfirmed() }
        case .speechHeard: return harness.send { $0.speechHeard() }
        case .transcript: return harness.send { $0.finalTranscript(turn: turn, text: TurnSituation.transcript) }
        case .emptyTranscript: return harness.send { $0.finalTranscript(turn: turn, text: " \n") }
        case .staleTranscript: return harness.send { $0.finalTranscript(turn: 1, text: "late") }
        case .reply: return harness.send { $0.replyRequested(turn: turn, text: TurnSituation.reply) }
        case .unpromptedReply: return harness.send { $0.replyRequested(turn: nil, text: Self.unpromptedText) }
        case .staleReply: return harness.send { $0.replyRequested(turn: 1, text: "late") }
        case .playbackStarted: return harness.send { $0.playbackStarted(reply: reply) }
        case .playbackFinished: return harness.send { $0.playbackFinished(reply: reply) }
        case .stop: return harness.send { $0.stop() }
        case .cancel: return harness.send { $0.cancel() }
        case .tick: return harness.send { $0.tick() }
        case .tickAfterTimeout:
            harness.clock.advance(by: .seconds(400))
            return harness.send { $0.tick() }
        case .preview: return harness.send { $0.preview(text: Self.previewText, voice: Self.previewVoice) }
        case .previewPlayback: return harness.send { $0.playbackFinished(reply: TurnMachine<ManualClock>.previewReply) }
        case .onsetSuspected: return harness.send { $0.onsetSuspected() }
        case .onsetRejected: return harness.send { $0.onsetRejected() }
        case .replyText: return harness.send { $0.replyContinued(reply: reply, text: "and more", continues: true) }
        case .eagerEnd: return harness.send { $0.utteranceMayHaveEnded() }
        case .resumed: return harness.send { $0.utteranceResumed() }
        }
    }
}

/// A `TurnAction` without its snapshots, so table rows can state it in one line.
enum TurnOutcome: Equatable, Sendable, CustomStringConvertible {
    case none
    case ignored(TurnIgnoreReason)
    case rejected(TurnRejection)
    case effects([TurnEffect])

    init(_ action: TurnAction) {
        switch action {
        case .none: self = .none
        case .ignored(let reason): self = .ignored(reason)
        case .rejected(let rejection): self = .rejected(rejection)
        case .transition(let transition): self = .effects(transition.effects)
        }
    }

    var description: String {
        switch self {
        case .none: "none"
        case .ignored(let reason): "ignored(\(reason))"
        case .rejected(let rejection): "rejected(\(rejection))"
        case .effects(let effects): "effects(\(effects))"
        }
    }
}
