import ArgumentParser
import EarshotClient
import EarshotProtocol

/// The options every command that talks to the daemon shares.
struct DaemonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's socket.", valueName: "path"))
    var socket: String = SocketLocation.defaultPath()

    @Option(help: ArgumentHelp("Seconds to wait for the daemon to answer a request.", valueName: "seconds"))
    var timeout: Double = 5

    func validate() throws {
        guard timeout.isFinite, timeout > 0 else {
            throw ValidationError("--timeout must be a positive number of seconds (got \(timeout)).")
        }
    }

    func connect() throws(ClientError) -> DaemonConnection {
        try DaemonConnection.connect(path: socket, responseTimeout: .milliseconds(Int64(timeout * 1000)))
    }

    /// Connects, runs `body`, and closes; a failure is told on stderr and becomes the exit status.
    func withConnection<Result>(_ body: (DaemonConnection) throws(ClientError) -> Result) throws -> Result {
        do {
            let connection = try connect()
            defer { connection.close() }
            return try body(connection)
        } catch {
            throw DaemonExitStatus.report(error)
        }
    }
}

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
