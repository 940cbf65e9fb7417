/// What `earshot watch` shows, kept up to date from the daemon's events and `status` answers.
public struct WatchModel: Sendable, Equatable {
    /// How many of the last errors are kept.
    public static let keptErrors = 4

    public var socketPath: String
    public var connection: Connection = .connecting
    /// The voice UI's state (`idle`, `listening`, …); `nil` until the daemon has said.
    public var state: String?
    public var turn = 0
    public var muted = false
    public var controls: [String] = []
    /// The error code of a `listening` state entered because something failed.
    public var stateError: String?
    public var mic: Meter?
    /// The assistant's voice; only while it speaks.
    public var speaker: Meter?
    public var utterance: Utterance?
    /// The last errors, newest last.
    public var errors: [ErrorNote] = []
    public var audio = AudioRoute()
    /// Seconds the daemon has been up, as of its last `status` answer.
    public var uptime: Double?
    /// The latest audio time (`t`) heard from the daemon.
    public var audioTime: Double?
    /// What became of the last command sent from the keyboard, when there is something to say.
    public var notice: String?

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    public enum Connection: Sendable, Equatable {
        case connecting
        case connected
        /// The daemon went away; why, in words.
        case lost(String)
    }
}
