import ArgumentParser
import EarshotClient
import EarshotProtocol

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the daemon is doing: state, audio, uptime, counters and the last errors.",
        discussion: """
            Exit status: 0 done, 3 the daemon is not running, 4 it could not be talked to.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Flag(help: "Print the daemon's response as it came: one JSON line.")
    var json = false

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.status) }
        if json {
            ConsoleOutput.line(response.line)
        } else {
            StatusSummary.lines(response.status).forEach { ConsoleOutput.line($0) }
        }
    }
}
