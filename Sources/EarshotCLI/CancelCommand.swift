import ArgumentParser
import EarshotProtocol

struct CancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel the turn being heard or thought about.",
        discussion: TurnRequest.discussion
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try TurnRequest.run(.cancel, daemon)
    }
}
