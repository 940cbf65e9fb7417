import ArgumentParser
import EarshotProtocol

struct SetSinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-sink",
        abstract: "Play to a named sink, or with --default follow the server's default.",
        discussion: "Exit status: 0 done, 1 refused (e.g. no such device), 3 the daemon is not running."
    )

    @OptionGroup var device: DeviceChoice
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try device.send(.setSink(device.name), key: "sink", daemon)
    }
}
