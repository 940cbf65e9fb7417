/// What the supervisor asks of the daemon: messages for the service manager and lines for the log.
public enum SupervisorAction: Equatable, Sendable {
    /// Start-up is done: tell the manager (`READY=1`) with this status line.
    case ready(status: String)
    /// The status line changed (`STATUS=`).
    case status(String)
    /// The loop is healthy and a keep-alive is due (`WATCHDOG=1`).
    case keepAlive
    /// The loop just got stuck; keep-alives stop until it recovers. Log it (once).
    case stalled(String)
    /// The loop works again after a stall; keep-alives resume. Log it.
    case recovered(String)
    /// Shutting down (`STOPPING=1`) with this status line.
    case stopping(status: String)
}
