@testable import EarshotTurns

/// Every input the machine takes, with the parameters the table uses.
enum TurnTableInput: String, CaseIterable, Sendable {
    case start, dismiss, mute, unmute
    case utteranceStarted, utteranceEnded, bargeInConfirmed
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

    static let unpromptedText = "your timer is done"

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
        }
    }
}
