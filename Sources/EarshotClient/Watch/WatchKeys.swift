public import EarshotProtocol

/// The keys `earshot watch` answers to: one per control, so the watch is also a remote control.
public enum WatchKeys {
    /// The key that quits the watch (besides Ctrl-C).
    public static let quit: Character = "q"
    /// The key that turns voice mode on; `start` is no control, since `idle` offers none.
    public static let start: Character = "v"

    static let controlKeys: [VoiceState.Control: Character] = [
        .stop: "s", .cancel: "c", .dismiss: "d", .mute: "m", .unmute: "m",
    ]

    /// The key for a control the daemon offers, if it has one.
    public static func key(for control: String) -> Character? {
        VoiceState.Control(rawValue: control).flatMap { controlKeys[$0] }
    }

    /// The command `key` sends in the state `model` shows; `nil` when that control is not on offer.
    public static func command(for key: Character, in model: WatchModel) -> Command? {
        if key == start { return model.state == "idle" ? .start : nil }
        let offered = model.controls.compactMap(VoiceState.Control.init(rawValue:))
        return offered.first { controlKeys[$0] == key }.map(command(for:))
    }

    /// The command a control sends.
    static func command(for control: VoiceState.Control) -> Command {
        switch control {
        case .stop: .stop
        case .cancel: .cancel
        case .dismiss: .dismiss
        case .mute: .mute
        case .unmute: .unmute
        }
    }
}
