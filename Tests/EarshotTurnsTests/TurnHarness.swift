import EarshotBase
@testable import EarshotTurns

/// A `TurnMachine` on a `ManualClock`, remembering the reply numbers it hands out.
struct TurnHarness {
    let clock: ManualClock
    var machine: TurnMachine<ManualClock>
    /// The reply number of the latest `synthesize` effect; 0 before any.
    private(set) var latestReply = 0

    /// The standard timeouts, with speech after an end always a new turn: the tables do not let
    /// time pass, so the rejoin window (``TurnMachineRejoinTests``) would take every such speech.
    static var tables: TurnMachine<ManualClock>.Configuration {
        var configuration = TurnMachine<ManualClock>.Configuration.standard
        configuration.rejoinWindow = nil
        return configuration
    }

    init(configuration: TurnMachine<ManualClock>.Configuration = Self.tables) {
        let clock = ManualClock()
        self.clock = clock
        machine = TurnMachine(clock: clock, configuration: configuration)
    }

    @discardableResult
    mutating func send(_ input: (inout TurnMachine<ManualClock>) -> TurnAction) -> TurnAction {
        let action = input(&machine)
        for effect in action.effects {
            switch effect {
            case .synthesize(let reply, _, _, _), .prepareSpeech(let reply, _, _, _): latestReply = reply
            default: break
            }
        }
        return action
    }

    var phase: TurnPhase {
        machine.snapshot.phase
    }

    var turn: Int {
        machine.snapshot.turn
    }

    /// Plays one complete turn from `listening` back to `listening`.
    mutating func completeTurn(saying transcript: String = "hello", reply: String = "hi there") {
        send { $0.utteranceStarted() }
        send { $0.utteranceEnded() }
        let turn = turn
        send { $0.finalTranscript(turn: turn, text: transcript) }
        send { $0.replyRequested(turn: turn, text: reply) }
        let reply = latestReply
        send { $0.playbackStarted(reply: reply) }
        send { $0.playbackFinished(reply: reply) }
    }
}

/// Every distinct starting state, each reached by real inputs from a fresh machine after
/// one complete warm-up turn (so turn 1 and reply 1 exist and are stale afterwards).
enum TurnSituation: String, CaseIterable, Sendable {
    case idle, listening, listeningMuted, hearing, transcribing, awaitingReply, preparingSpeech, speaking,
        bargeInSuspected
    /// `hearing` after an eager end: the transcript of the utterance so far is due.
    case eagerTranscribing
    /// `hearing` after an eager end: the responder has the transcript.
    case eagerAwaitingReply
    /// `hearing` after an eager end: reply 2 is synthesised and held unheard.
    case eagerHeld
    /// `thinking` for an instant: the turn ended with nothing to say, found out at its eager end.
    case concluding

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
        case .eagerTranscribing, .eagerAwaitingReply, .eagerHeld, .concluding:
            advance(harness: &harness, through: .hearing)
            harness.send { $0.utteranceMayHaveEnded() }
            switch self {
            case .eagerAwaitingReply:
                harness.send { $0.finalTranscript(turn: 2, text: Self.transcript) }
            case .eagerHeld:
                harness.send { $0.finalTranscript(turn: 2, text: Self.transcript) }
                harness.send { $0.replyRequested(turn: 2, text: Self.reply) }
            case .concluding:
                harness.send { $0.finalTranscript(turn: 2, text: "") }
                harness.send { $0.utteranceEnded() }
            default:
                break
            }
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
            case .idle, .listening, .listeningMuted, .eagerTranscribing, .eagerAwaitingReply, .eagerHeld, .concluding: break
            }
            if step == target { return }
        }
    }
}

/// A clock that moves only when a test advances it. A class, so the copy a `TurnMachine`
/// holds sees the same time as the test.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol, CustomStringConvertible {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        var description: String {
            "t+\(offset)"
        }
    }

    private let current = Locked(Instant(offset: .zero))

    var now: Instant {
        current.withLock { $0 }
    }

    var minimumResolution: Duration {
        .nanoseconds(1)
    }

    func advance(by duration: Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }

    func advance(to instant: Instant) {
        current.withLock { $0 = max($0, instant) }
    }

    /// Nothing under test sleeps on this clock; yielding until a test advances it is enough.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}
