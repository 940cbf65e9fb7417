import EarshotTurns
import PropertyBased

/// One random input for the property tests. Numbers are offsets from the machine's current
/// turn or latest reply, so random transcripts, replies and playback events often hit the
/// live one and otherwise exercise the stale and unknown paths.
struct TurnStep: Sendable, CustomStringConvertible {
    enum Kind: CaseIterable, Sendable {
        case start, dismiss, mute, unmute, utteranceStarted, utteranceEnded, bargeInConfirmed
        case transcript, emptyTranscript, reply, emptyReply, unpromptedReply
        case playbackStarted, playbackFinished, stop, cancel, tick
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
            (.tick, 3), (.advanceClock, 2), (.wait, 4),
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
        case .advanceClock:
            harness.clock.advance(by: clockAdvance)
            return .none
        case .wait:
            harness.clock.advance(by: clockAdvance)
            return harness.send { $0.tick() }
        }
    }
}
