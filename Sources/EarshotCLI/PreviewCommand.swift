import ArgumentParser
import EarshotClient
import EarshotProtocol

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Hear a sample line in a voice (the current one if none is named)."
    )

    @Argument(help: "A voice's name or id, e.g. Sky.")
    var voice: String?

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.preview(voice)) }
        ConsoleOutput.line("previewing: \(response["voice"]?.stringValue ?? voice ?? "current voice")")
    }
}
