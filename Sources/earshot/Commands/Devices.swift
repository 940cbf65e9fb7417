import ArgumentParser
import EarshotClient
import EarshotProtocol

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the sound server's sources and sinks, marking the default and the ones in use.",
        discussion: """
            Exit status: 0 done, 1 the daemon refused (e.g. the sound server is away), 3 the daemon \
            is not running, 4 it could not be talked to.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Flag(help: "Print the daemon's response as it came: one JSON line.")
    var json = false

    func run() throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.devices) }
        if json {
            ConsoleOutput.line(response.line)
        } else {
            DeviceListing.lines(response.results).forEach { ConsoleOutput.line($0) }
        }
    }
}

/// What `set-source` and `set-sink` take: a device's name, or `--default` to follow the
/// server's default; and how they ask the daemon and print what is in use.
struct DeviceChoice: ParsableArguments {
    @Argument(help: "The device's name, as `earshot devices` lists it.")
    var name: String?

    @Flag(name: .customLong("default"), help: "Follow the sound server's default device.")
    var followDefault = false

    func validate() throws {
        guard (name != nil) != followDefault else { throw ValidationError("Give a device name or --default, not both or neither.") }
    }

    /// Sends `command` (`set-source` or `set-sink` with ``name``); prints the device now in use,
    /// found under `key` in the response.
    func send(_ command: Command, key: String, _ daemon: DaemonOptions) throws {
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(command) }
        let inUse = response[key]?.stringValue ?? "?"
        let following = response["following_default"]?.boolValue == true
        ConsoleOutput.line(following ? "\(key) \(inUse) (following the default)" : "\(key) \(inUse)")
    }
}

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
