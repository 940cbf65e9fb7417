/// The turn state machine behind the voice UI.
///
/// It performs no I/O. Each input is a `mutating` method returning a ``TurnAction`` that
/// says what the caller (an actor owning the microphone, transcriber, responder and player)
/// must do. Time comes only from `clock.now`; call ``tick()`` regularly (every audio frame
/// is fine: it does not allocate when nothing is due), or sleep until ``nextDeadline``.
public struct TurnMachine<C: Clock>: Sendable {
    /// The clock deadlines are measured on.
    public let clock: C
    /// The timeouts in force.
    public private(set) var configuration: Configuration

    var state: State = .idle
    var microphoneMuted = false
    var turn = 0
    var latestReply = 0

    /// Creates a machine in `idle`.
    public init(clock: C, configuration: Configuration) {
        self.clock = clock
        self.configuration = configuration
    }

    /// Takes new timeouts; a deadline already set stands, the next one uses them.
    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// What front ends render.
    public var snapshot: TurnSnapshot {
        TurnSnapshot(phase: state.phase, turn: turn, muted: microphoneMuted, error: state.error)
    }

    /// The reply being synthesised or played, if any.
    public var replyInFlight: Int? {
        state.replyInFlight
    }

    /// When ``tick()`` next has something to do; `nil` in the resting phases (`idle`, `listening`).
    public var nextDeadline: C.Instant? {
        switch state {
        case .idle, .listening:
            nil
        case .hearing(let deadline), .transcribing(let deadline), .awaitingReply(let deadline),
            .preparingSpeech(_, let deadline), .speaking(_, let deadline):
            deadline
        case .bargeInSuspected(_, _, let speechStartedAt):
            speechStartedAt.advanced(by: configuration.minimumInterruption)
        }
    }

    /// Moves to `newState` and reports the transition.
    mutating func enter(_ newState: State, effects: [TurnEffect]) -> TurnAction {
        let from = snapshot
        state = newState
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// Starts the next turn in `hearing`, the speech having begun at `speechStartedAt`.
    mutating func beginTurn(speechStartedAt: C.Instant, after effects: [TurnEffect]) -> TurnAction {
        let from = snapshot
        turn += 1
        state = .hearing(deadline: speechStartedAt.advanced(by: configuration.maximumUtterance))
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects + [.beginUtterance(turn: turn)]))
    }

    /// What abandoning the work pending in the current state takes.
    var abandonEffects: [TurnEffect] {
        switch state {
        case .idle, .listening:
            []
        case .hearing, .transcribing:
            [.discardUtterance(turn: turn)]
        case .awaitingReply:
            [.discardReply(turn: turn)]
        case .preparingSpeech(let reply, _), .speaking(let reply, _), .bargeInSuspected(let reply, _, _):
            [.stopPlayback(reply: reply)]
        }
    }

    /// Whether `turn` names a turn that has already begun.
    func isKnown(turn candidate: Int) -> Bool {
        candidate >= 1 && candidate <= turn
    }
}

extension TurnMachine where C.Duration == Swift.Duration {
    /// Creates a machine in `idle` with the ``Configuration/standard`` timeouts.
    public init(clock: C) {
        self.init(clock: clock, configuration: .standard)
    }
}
