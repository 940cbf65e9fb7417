/// The controls a front end offers; derived from the phase and the mute state.
public struct TurnControls: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Stop the assistant's speech (the white square).
    public static let stop = TurnControls(rawValue: 1 << 0)
    /// Abandon the current turn ("Tap to cancel").
    public static let cancel = TurnControls(rawValue: 1 << 1)
    /// Leave voice mode (the red X).
    public static let dismiss = TurnControls(rawValue: 1 << 2)
    /// Mute the microphone.
    public static let mute = TurnControls(rawValue: 1 << 3)
    /// Unmute the microphone.
    public static let unmute = TurnControls(rawValue: 1 << 4)

    /// The controls offered in `phase`.
    public init(phase: TurnPhase, muted: Bool) {
        switch phase {
        case .idle:
            self = []
            return
        case .listening:
            self = [.dismiss]
        case .hearing, .thinking:
            self = [.cancel, .dismiss]
        case .speaking:
            self = [.stop, .dismiss]
        }
        insert(muted ? .unmute : .mute)
    }

    /// The control names in a fixed order, as front ends receive them.
    public var names: [String] {
        let named: [(TurnControls, String)] = [
            (.stop, "stop"), (.cancel, "cancel"), (.dismiss, "dismiss"), (.mute, "mute"), (.unmute, "unmute"),
        ]
        return named.filter { contains($0.0) }.map(\.1)
    }
}
