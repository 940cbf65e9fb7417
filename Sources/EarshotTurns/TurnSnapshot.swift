/// What a front end renders: a value copy of the machine's visible state.
public struct TurnSnapshot: Equatable, Hashable, Sendable {
    /// The phase the UI shows.
    public var phase: TurnPhase
    /// The number of the latest user utterance; 0 before the first. Never decreases.
    public var turn: Int
    /// Whether the microphone is muted; always `false` while idle.
    public var muted: Bool
    /// The failure to show; only ever set while `listening`, cleared when the user next acts.
    public var error: TurnError?

    public init(phase: TurnPhase, turn: Int, muted: Bool, error: TurnError? = nil) {
        self.phase = phase
        self.turn = turn
        self.muted = muted
        self.error = error
    }

    /// The controls to offer.
    public var controls: TurnControls {
        TurnControls(phase: phase, muted: muted)
    }
}
