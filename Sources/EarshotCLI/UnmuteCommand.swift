import ArgumentParser
import EarshotProtocol

struct UnmuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmute",
        abstract: "Unmute the microphone.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.unmute, daemon)
    }
}
