import ArgumentParser
import EarshotClient
import EarshotProtocol

struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the assistant's voices; the current one is marked with *.",
        discussion: "Add your own as TOML files in $XDG_CONFIG_HOME/earshot/voices/ (see voices/README.md)."
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.voices) }
        for voice in response["voices"]?.arrayValue ?? [] {
            let mark = voice["current"]?.boolValue == true ? "*" : " "
            let name = voice["name"]?.stringValue ?? "?"
            let id = voice["id"]?.stringValue ?? "?"
            let summary = voice["description"]?.stringValue ?? ""
            ConsoleOutput.line("\(mark) \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(id.padding(toLength: 10, withPad: " ", startingAt: 0)) \(summary)")
        }
    }
}
