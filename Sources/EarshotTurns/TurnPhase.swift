/// The five phases of the voice UI.
public enum TurnPhase: String, Sendable, Hashable, CaseIterable {
    case idle, listening, hearing, thinking, speaking
}
