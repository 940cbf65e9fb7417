/// One assignment in a message to the service manager (sd_notify(3)).
public enum NotifyField: Equatable, Sendable {
    /// `READY=1`: start-up is finished (Type=notify units are "active" from here on).
    case ready
    /// `RELOADING=1`: the configuration is being reloaded; `ready` follows when done.
    case reloading
    /// `STOPPING=1`: shutting down.
    case stopping
    /// `STATUS=…`: one line for `systemctl status`, in words a person can read.
    case status(String)
    /// `WATCHDOG=1`: the keep-alive that holds off the watchdog (`WatchdogSec=`).
    case watchdog
    /// `WATCHDOG=trigger`: asks the manager to act as if the watchdog had expired.
    case watchdogTrigger
    /// `ERRNO=…`: why the service failed, as an errno number.
    case errno(Int32)

    /// The `KEY=value` line. A status is kept to one line: the protocol separates fields by
    /// newlines, so a newline inside the text would start a bogus field.
    public var assignment: String {
        switch self {
        case .ready: "READY=1"
        case .reloading: "RELOADING=1"
        case .stopping: "STOPPING=1"
        case .status(let text):
            "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
        case .watchdog: "WATCHDOG=1"
        case .watchdogTrigger: "WATCHDOG=trigger"
        case .errno(let number): "ERRNO=\(number)"
        }
    }

    /// The whole message: one assignment per line.
    public static func message(_ fields: [NotifyField]) -> String {
        fields.map(\.assignment).joined(separator: "\n")
    }
}
