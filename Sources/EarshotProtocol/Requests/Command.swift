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
    /// Say `text` (in `voice`, else the current one), as the reply to `turn` or, without one,
    /// unprompted while listening. `say` is the same command.
    case speak(text: String, voice: String?, turn: Int?)
    /// The voices, the current one marked.
    case voices
    /// Speak in the named voice from now on.
    case setVoice(String)
    /// Speak a sample line in the named voice (the current one when nil).
    case preview(String?)
    /// Delete every recording the daemon made; without `confirm`, only say what that would delete.
    case forget(confirm: Bool)

    /// `level_hz` when a subscription does not say.
    public static let defaultLevelHz = 30
    /// The `level_hz` a subscription may ask for.
    public static let levelHzRange = 1...60

    /// Every command name on the wire, in the documented order.
    public static let names = [
        "status", "start", "dismiss", "stop", "cancel", "mute", "unmute", "subscribe", "unsubscribe", "devices",
        "set-source", "set-sink", "speak", "say", "voices", "set-voice", "preview", "forget",
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
        case .speak: "speak"
        case .voices: "voices"
        case .setVoice: "set-voice"
        case .preview: "preview"
        case .forget: "forget"
        }
    }
}
