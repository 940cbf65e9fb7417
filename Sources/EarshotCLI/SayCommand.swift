import ArgumentParser
import EarshotClient
import EarshotProtocol

struct SayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Have the assistant say something now, in voice mode (an unprompted reply).",
        discussion: """
            The daemon must be listening (earshot start). The reply plays through the speaker; \
            `earshot stop` silences it. Long text is spoken sentence by sentence as it is synthesized. \
            \(TurnRequest.discussion)
            """
    )

    @Argument(help: "What to say.")
    var text: String

    @Option(help: "Say it in this voice (see earshot voices) instead of the current one.")
    var voice: String?

    @Option(help: "Answer this turn's transcript instead of speaking unprompted.")
    var turn: Int?

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in
            try connection.request(.speak(text: text, voice: voice, turn: turn))
        }
        ConsoleOutput.line(StateSummary.line(response.state))
    }
}
