/// An accepted input: the snapshot before and after, and what the caller must do.
public struct TurnTransition: Equatable, Hashable, Sendable {
    /// The snapshot before the input.
    public var from: TurnSnapshot
    /// The snapshot after the input; push it to front ends when it differs from `from`.
    public var to: TurnSnapshot
    /// The effects to perform, in order.
    public var effects: [TurnEffect]

    public init(from: TurnSnapshot, to: TurnSnapshot, effects: [TurnEffect]) {
        self.from = from
        self.to = to
        self.effects = effects
    }
}
