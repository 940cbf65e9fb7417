import ArgumentParser
import EarshotClient
import EarshotProtocol

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the sound server's sources and sinks, marking the default and the ones in use.",
        discussion: """
            Exit status: 0 done, 1 the daemon refused (e.g. the sound server is away), 3 the daemon \
            is not running, 4 it could not be talked to.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Flag(help: "Print the daemon's response as it came: one JSON line.")
    var json = false

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.devices) }
        if json {
            ConsoleOutput.line(response.line)
        } else {
            DeviceListing.lines(response.results).forEach { ConsoleOutput.line($0) }
        }
    }
}
