import EarshotTurns
import Testing

@Suite("Every phase × every input")
struct TurnTableTests {
    @Test("The table covers every situation × input exactly once")
    func tableIsComplete() {
        let cells = TurnTable.rows.map { "\($0.situation.rawValue)+\($0.input.rawValue)" }
        #expect(Set(cells).count == cells.count)
        #expect(cells.count == TurnSituation.allCases.count * TurnTableInput.allCases.count)
    }

    @Test("Each situation starts in the phase it names")
    func situationsReachTheirPhase() {
        let expected: [TurnSituation: TurnPhase] = [
            .idle: .idle, .listening: .listening, .listeningMuted: .listening, .hearing: .hearing,
            .transcribing: .thinking, .awaitingReply: .thinking, .preparingSpeech: .thinking,
            .speaking: .speaking, .bargeInSuspected: .speaking,
        ]
        for situation in TurnSituation.allCases {
            #expect(situation.make().phase == expected[situation], "\(situation)")
        }
    }

    @Test(arguments: TurnTable.rows)
    func row(_ row: TurnTableRow) {
        var harness = row.situation.make()
        let before = harness.machine.snapshot
        let action = row.input.send(to: &harness)

        #expect(harness.phase == row.phase)
        #expect(TurnOutcome(action) == row.outcome)
        if case .transition(let transition) = action {
            #expect(transition.from == before)
            #expect(transition.to == harness.machine.snapshot)
        } else {
            #expect(harness.machine.snapshot == before)
        }
    }
}
