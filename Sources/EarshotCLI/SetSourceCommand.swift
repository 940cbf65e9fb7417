import ArgumentParser
import EarshotProtocol

struct SetSourceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-source",
        abstract: "Record from a named source, or with --default follow the server's default.",
        discussion: "Exit status: 0 done, 1 refused (e.g. no such device), 3 the daemon is not running."
    )

    @OptionGroup var device: DeviceChoice
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try device.send(.setSource(device.name), key: "source", daemon)
    }
}
