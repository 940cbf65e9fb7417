import EarshotTurns
import PropertyBased

/// One random input for the property tests. Numbers are offsets from the machine's current
/// turn or latest reply, so random transcripts, replies and playback events often hit the
/// live one and otherwise exercise the stale and unknown paths.
struct TurnStep: Sendable, CustomStringConvertible {
    enum Kind: CaseIterable, Sendable {
        case start, dismiss, mute, unmute, utteranceStarted, utteranceEnded, bargeInConfirmed
        case transcript, emptyTranscript, reply, emptyReply, unpromptedReply
        case playbackStarted, playbackFinished, stop, cancel, tick, advanceClock
    }

    var kind: Kind
    var offset: Int
    /// 1 ms to about 4 minutes on a logarithmic scale, so both short and timeout-sized gaps occur.
    var clockAdvance: Duration

    static var generator: Generator<TurnStep, some Sequence & SendableMetatype> {
        zip(Gen<Kind>.case, Gen.int(in: -2...1), Gen.int(in: 0...18)).map { drawn in
            TurnStep(kind: drawn.0, offset: drawn.1, clockAdvance: .milliseconds(1 << drawn.2))
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
        default: "\(kind)"
        }
    }

    private var signed: String {
        offset < 0 ? "\(offset)" : "+\(offset)"
    }

    /// Gives the step to the machine; a clock advance is not an input and answers `.none`.
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
        case .advanceClock:
            harness.clock.advance(by: clockAdvance)
            return .none
        }
    }
}
