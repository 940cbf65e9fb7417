@testable import EarshotTurns

/// Every distinct starting state, each reached by real inputs from a fresh machine after
/// one complete warm-up turn (so turn 1 and reply 1 exist and are stale afterwards).
enum TurnSituation: String, CaseIterable, Sendable {
    case idle, listening, listeningMuted, hearing, transcribing, awaitingReply, preparingSpeech, speaking,
        bargeInSuspected

    static let transcript = "what time is it"
    static let reply = "it is noon"

    func make() -> TurnHarness {
        var harness = TurnHarness()
        harness.send { $0.start() }
        harness.completeTurn()
        switch self {
        case .idle:
            harness.send { $0.dismiss() }
        case .listening:
            break
        case .listeningMuted:
            harness.send { $0.mute() }
        case .hearing, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected:
            advance(harness: &harness, through: self)
        }
        return harness
    }

    private func advance(harness: inout TurnHarness, through target: TurnSituation) {
        let inOrder: [TurnSituation] = [
            .hearing, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected,
        ]
        for step in inOrder {
            switch step {
            case .hearing: harness.send { $0.utteranceStarted() }
            case .transcribing: harness.send { $0.utteranceEnded() }
            case .awaitingReply: harness.send { $0.finalTranscript(turn: 2, text: Self.transcript) }
            case .preparingSpeech: harness.send { $0.replyRequested(turn: 2, text: Self.reply) }
            case .speaking: harness.send { $0.playbackStarted(reply: 2) }
            case .bargeInSuspected: harness.send { $0.utteranceStarted() }
            case .idle, .listening, .listeningMuted: break
            }
            if step == target { return }
        }
    }
}
