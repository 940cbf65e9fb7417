import EarshotTurns

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
