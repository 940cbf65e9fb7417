/// What the caller must do after giving the machine an input.
public enum TurnAction: Equatable, Hashable, Sendable {
    /// Nothing happened (for example a `tick()` with no deadline due).
    case none
    /// The input was stale or redundant and changed nothing; not an error.
    case ignored(TurnIgnoreReason)
    /// The input made no sense in this state and changed nothing; report it to whoever sent it.
    case rejected(TurnRejection)
    /// The input was accepted.
    case transition(TurnTransition)

    /// The effects to perform; empty unless this is a transition.
    public var effects: [TurnEffect] {
        if case .transition(let transition) = self { transition.effects } else { [] }
    }
}
