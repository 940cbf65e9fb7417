import EarshotClient
import EarshotProtocol

/// What `start`, `dismiss`, `stop`, `cancel`, `mute` and `unmute` share: send the command, print
/// the state it led to in one line.
enum TurnRequest {
    static let discussion = """
        Prints the resulting state in one line, e.g. \
        `listening · turn 0 · microphone on · controls: dismiss, mute`. \
        Exit status: 0 done, 1 the daemon refused (its reason is printed), 3 the daemon is not \
        running, 4 it could not be talked to.
        """

    static func run(_ command: Command, _ daemon: DaemonOptions) throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(command) }
        ConsoleOutput.line(StateSummary.line(response.state))
    }
}
