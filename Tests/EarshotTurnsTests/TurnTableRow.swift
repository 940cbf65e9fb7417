import EarshotTurns
import Testing

/// One cell of the phase × input table: where the machine starts, what it is given,
/// the phase it must end in and what it must answer.
struct TurnTableRow: Sendable, CustomTestStringConvertible {
    var situation: TurnSituation
    var input: TurnTableInput
    var phase: TurnPhase
    var outcome: TurnOutcome

    init(_ situation: TurnSituation, _ input: TurnTableInput, _ phase: TurnPhase, _ outcome: TurnOutcome) {
        self.situation = situation
        self.input = input
        self.phase = phase
        self.outcome = outcome
    }

    var testDescription: String {
        "\(situation.rawValue) + \(input.rawValue) → \(phase.rawValue), \(outcome)"
    }
}
