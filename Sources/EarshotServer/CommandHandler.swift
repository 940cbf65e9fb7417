public import EarshotProtocol

/// Runs the commands that reach the daemon's state: everything but `subscribe` and
/// `unsubscribe`, which the server answers itself.
///
/// Each connection waits for one command's result before running its next, so responses go
/// out in request order; different connections call concurrently.
public protocol CommandHandler: Sendable {
    func handle(_ command: Command) async -> CommandResult
}
