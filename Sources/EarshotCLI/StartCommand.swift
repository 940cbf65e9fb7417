import ArgumentParser
import EarshotProtocol

struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Turn voice mode on: open the microphone and listen.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.start, daemon)
    }
}
