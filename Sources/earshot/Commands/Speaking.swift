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
