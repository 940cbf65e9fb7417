import ArgumentParser
import EarshotProtocol

struct DismissCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Turn voice mode off (the red X): stop whatever is happening and close the microphone.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.dismiss, daemon)
    }
}
