import ArgumentParser
import EarshotClient
import EarshotProtocol

struct SetVoiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-voice",
        abstract: "Speak in another voice from now on (see earshot voices)."
    )

    @Argument(help: "A voice's name or id, e.g. Cove.")
    var voice: String

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in
            try connection.request(.setVoice(voice))
        }
        ConsoleOutput.line("voice: \(response["voice"]?.stringValue ?? voice)")
    }
}
