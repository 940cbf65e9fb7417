import EarshotTurns
import Testing

/// A reply whose text streams from a responder: every piece after the first is an input
/// (`replyContinued`), taken only while the reply is in flight, and abandoning the reply while
/// its text is still coming discards the responder's reply as well as stopping playback.
@Suite("A streamed reply") struct TurnMachineStreamedReplyTests {
    /// Where the streamed reply (reply 2, answering turn 2) stands when a row's input arrives.
    enum Stage: String, CaseIterable, Sendable {
        case preparing, speaking, paused
        /// Playing, its text complete.
        case spokenInFull

        func make() -> TurnHarness {
            var harness = TurnSituation.awaitingReply.make()
            harness.send { $0.replyRequested(turn: 2, text: "First,", continues: true) }
            if self == .preparing { return harness }
            harness.send { $0.playbackStarted(reply: 2) }
            switch self {
            case .paused: harness.send { $0.utteranceStarted() }
            case .spokenInFull: harness.send { $0.replyContinued(reply: 2, text: "last.", continues: false) }
            case .preparing, .speaking: break
            }
            return harness
        }
    }

    enum Input: String, Sendable {
        case morePiece, lastPiece, stalePiece, unknownPiece, stop, cancel, dismiss, bargeInConfirmed, playbackFinished,
            tickAfterTimeout

        func send(to harness: inout TurnHarness) -> TurnAction {
            switch self {
            case .morePiece: return harness.send { $0.replyContinued(reply: 2, text: "then more,", continues: true) }
            case .lastPiece: return harness.send { $0.replyContinued(reply: 2, text: "", continues: false) }
            case .stalePiece: return harness.send { $0.replyContinued(reply: 1, text: "late", continues: true) }
            case .unknownPiece: return harness.send { $0.replyContinued(reply: 9, text: "what?", continues: true) }
            case .stop: return harness.send { $0.stop() }
            case .cancel: return harness.send { $0.cancel() }
            case .dismiss: return harness.send { $0.dismiss() }
            case .bargeInConfirmed: return harness.send { $0.bargeInConfirmed() }
            case .playbackFinished: return harness.send { $0.playbackFinished(reply: 2) }
            case .tickAfterTimeout:
                harness.clock.advance(by: .seconds(400))
                return harness.send { $0.tick() }
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var stage: Stage
        var input: Input
        var phase: TurnPhase
        var outcome: TurnOutcome

        init(_ stage: Stage, _ input: Input, _ phase: TurnPhase, _ outcome: TurnOutcome) {
            self.stage = stage
            self.input = input
            self.phase = phase
            self.outcome = outcome
        }

        var testDescription: String { "\(stage.rawValue) + \(input.rawValue) → \(phase.rawValue), \(outcome)" }
    }

    static let rows: [Row] = [
        .init(.preparing, .morePiece, .thinking, .effects([.continueSpeech(reply: 2, text: "then more,", continues: true)])),
        .init(.preparing, .lastPiece, .thinking, .effects([.continueSpeech(reply: 2, text: "", continues: false)])),
        .init(.preparing, .stalePiece, .thinking, .ignored(.staleReplyText(reply: 1))),
        .init(.preparing, .unknownPiece, .thinking, .rejected(.unknownReply(9))),
        .init(.preparing, .stop, .thinking, .rejected(.nothingPlaying)),
        .init(.preparing, .cancel, .listening, .effects([.stopPlayback(reply: 2), .discardReply(turn: 2)])),
        .init(.preparing, .dismiss, .idle, .effects([.stopPlayback(reply: 2), .discardReply(turn: 2), .closeMicrophone])),
        .init(.preparing, .playbackFinished, .listening, .effects([.discardReply(turn: 2)])),
        .init(
            .preparing, .tickAfterTimeout, .listening,
            .effects([.stopPlayback(reply: 2), .discardReply(turn: 2), .reportError(.playbackDidNotStart(turn: 2))])),

        .init(.speaking, .morePiece, .speaking, .effects([.continueSpeech(reply: 2, text: "then more,", continues: true)])),
        .init(.speaking, .lastPiece, .speaking, .effects([.continueSpeech(reply: 2, text: "", continues: false)])),
        .init(.speaking, .stop, .listening, .effects([.stopPlayback(reply: 2), .discardReply(turn: 2)])),
        .init(.speaking, .cancel, .listening, .effects([.stopPlayback(reply: 2), .discardReply(turn: 2)])),
        .init(.speaking, .playbackFinished, .listening, .effects([.discardReply(turn: 2)])),
        .init(
            .speaking, .tickAfterTimeout, .listening,
            .effects([.stopPlayback(reply: 2), .discardReply(turn: 2), .reportError(.playbackTimedOut(turn: 2))])),

        .init(.paused, .morePiece, .speaking, .effects([.continueSpeech(reply: 2, text: "then more,", continues: true)])),
        .init(
            .paused, .bargeInConfirmed, .hearing,
            .effects([.announceSpeech, .stopPlayback(reply: 2), .discardReply(turn: 2), .beginUtterance(turn: 3)])),
        .init(.paused, .stop, .listening, .effects([.stopPlayback(reply: 2), .discardReply(turn: 2)])),
        .init(.paused, .playbackFinished, .hearing, .effects([.announceSpeech, .discardReply(turn: 2), .beginUtterance(turn: 3)])),

        // Its text complete, the reply is only playback: stopping it stops only the playback.
        .init(.spokenInFull, .morePiece, .speaking, .rejected(.replyTextEnded(reply: 2))),
        .init(.spokenInFull, .lastPiece, .speaking, .rejected(.replyTextEnded(reply: 2))),
        .init(.spokenInFull, .stop, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.spokenInFull, .cancel, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.spokenInFull, .dismiss, .idle, .effects([.stopPlayback(reply: 2), .closeMicrophone])),
        .init(.spokenInFull, .playbackFinished, .listening, .effects([])),
    ]

    @Test(arguments: rows) func row(_ row: Row) {
        var harness = row.stage.make()
        #expect(TurnOutcome(row.input.send(to: &harness)) == row.outcome)
        #expect(harness.phase == row.phase)
    }

    @Test func aPieceAfterTheReplyWasStoppedIsStale() {
        var harness = Stage.speaking.make()
        harness.send { $0.stop() }
        #expect(harness.send { $0.replyContinued(reply: 2, text: "more", continues: true) } == .ignored(.staleReplyText(reply: 2)))
    }

    @Test func aPieceChangesNothingTheUISees() {
        var harness = Stage.speaking.make()
        let before = harness.machine.snapshot
        guard case .transition(let transition) = harness.send({ $0.replyContinued(reply: 2, text: "more", continues: true) }) else {
            Issue.record("the piece was not taken")
            return
        }
        #expect(transition.from == before)
        #expect(transition.to == before)
    }

    @Test func anUnpromptedReplyNeverDiscardsAResponder() {
        var harness = TurnSituation.listening.make()
        harness.send { $0.replyRequested(turn: nil, text: "Announcement,", continues: true) }
        #expect(harness.send { $0.cancel() }.effects == [.stopPlayback(reply: 2)])
    }
}
