import ArgumentParser
import EarshotProtocol

struct MuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute",
        abstract: "Mute the microphone; voice mode stays on.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.mute, daemon)
    }
}
