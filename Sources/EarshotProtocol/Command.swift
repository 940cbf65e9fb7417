/// A request's command, with its arguments checked.
public enum Command: Hashable, Sendable {
    case status
    case start
    case dismiss
    case stop
    case cancel
    case mute
    case unmute
    /// Events of `topics` from now on, `level` events at most `levelHz` per second of audio.
    case subscribe(topics: Set<EventTopic>, levelHz: Int)
    case unsubscribe
    case devices
    /// Capture from the named source; `nil` follows the sound server's default.
    case setSource(String?)
    /// Play to the named sink; `nil` follows the sound server's default.
    case setSink(String?)

    /// `level_hz` when a subscription does not say.
    public static let defaultLevelHz = 30
    /// The `level_hz` a subscription may ask for.
    public static let levelHzRange = 1...60

    /// Every command name on the wire, in the documented order.
    public static let names = [
        "status", "start", "dismiss", "stop", "cancel", "mute", "unmute", "subscribe", "unsubscribe", "devices",
        "set-source", "set-sink",
    ]

    /// The `cmd` value of this command.
    public var name: String {
        switch self {
        case .status: "status"
        case .start: "start"
        case .dismiss: "dismiss"
        case .stop: "stop"
        case .cancel: "cancel"
        case .mute: "mute"
        case .unmute: "unmute"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .devices: "devices"
        case .setSource: "set-source"
        case .setSink: "set-sink"
        }
    }
}
