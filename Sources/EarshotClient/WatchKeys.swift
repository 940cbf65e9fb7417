/// The keys `earshot watch` answers to: one per control, so the watch is also a remote control.
public enum WatchKeys {
    /// The key that quits the watch (besides Ctrl-C).
    public static let quit: Character = "q"
    /// The key that turns voice mode on; `start` is no control, since `idle` offers none.
    public static let start: Character = "v"

    static let controlKeys: [String: Character] = [
        "stop": "s", "cancel": "c", "dismiss": "d", "mute": "m", "unmute": "m",
    ]

    /// The key for a control the daemon offers, if it has one.
    public static func key(for control: String) -> Character? {
        controlKeys[control]
    }

    /// The command `key` sends in the state `model` shows; `nil` when that control is not on offer.
    public static func command(for key: Character, in model: WatchModel) -> String? {
        if key == start { return model.state == "idle" ? "start" : nil }
        return model.controls.first { controlKeys[$0] == key }
    }
}
