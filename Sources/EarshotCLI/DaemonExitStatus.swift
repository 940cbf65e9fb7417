import ArgumentParser
import EarshotClient

/// The exit statuses of the commands that talk to the daemon (0 when all went well; 64 for a
/// mistake on the command line, from ArgumentParser).
enum DaemonExitStatus {
    /// The daemon refused the command (`"ok":false`); its message is on stderr.
    static let commandRefused = ExitCode(1)
    /// Nothing listens on the socket.
    static let daemonNotRunning = ExitCode(3)
    /// The daemon is there but could not be talked to: another user's, went away, did not
    /// answer, or answered garbage.
    static let daemonUnreachable = ExitCode(4)

    /// Tells `error` on stderr and returns the status to exit with.
    static func report(_ error: ClientError) -> ExitCode {
        ConsoleOutput.error(error.description)
        return status(for: error)
    }

    static func status(for error: ClientError) -> ExitCode {
        switch error {
        case .commandFailed: commandRefused
        case .daemonNotRunning, .notASocket, .socketPathTooLong: daemonNotRunning
        default: daemonUnreachable
        }
    }
}
