public import EarshotProtocol
public import EarshotTurns

extension VoiceState {
    /// What the turn machine's snapshot shows, in the protocol's terms.
    public init(_ snapshot: TurnSnapshot) {
        self.init(
            phase: Phase(snapshot.phase),
            turn: snapshot.turn,
            muted: snapshot.muted,
            controls: Self.controls(snapshot.controls),
            error: snapshot.error.map { ProtocolError.Code($0).rawValue },
            waitingFor: snapshot.waitingFor
        )
    }

    /// The controls offered, in the documented order.
    static func controls(_ offered: TurnControls) -> [Control] {
        let named: [(TurnControls, Control)] = [
            (.stop, .stop), (.cancel, .cancel), (.dismiss, .dismiss), (.mute, .mute), (.unmute, .unmute),
        ]
        return named.filter { offered.contains($0.0) }.map(\.1)
    }
}

extension VoiceState.Phase {
    public init(_ phase: TurnPhase) {
        switch phase {
        case .idle: self = .idle
        case .listening: self = .listening
        case .hearing: self = .hearing
        case .thinking: self = .thinking
        case .speaking: self = .speaking
        }
    }
}
