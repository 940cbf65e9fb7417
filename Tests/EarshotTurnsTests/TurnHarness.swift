@testable import EarshotTurns

/// A `TurnMachine` on a `ManualClock`, remembering the reply numbers it hands out.
struct TurnHarness {
    let clock: ManualClock
    var machine: TurnMachine<ManualClock>
    /// The reply number of the latest `synthesize` effect; 0 before any.
    private(set) var latestReply = 0

    init(configuration: TurnMachine<ManualClock>.Configuration = .standard) {
        let clock = ManualClock()
        self.clock = clock
        machine = TurnMachine(clock: clock, configuration: configuration)
    }

    @discardableResult
    mutating func send(_ input: (inout TurnMachine<ManualClock>) -> TurnAction) -> TurnAction {
        let action = input(&machine)
        for case .synthesize(let reply, _) in action.effects {
            latestReply = reply
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
