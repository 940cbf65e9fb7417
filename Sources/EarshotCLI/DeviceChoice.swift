import ArgumentParser
import EarshotClient
import EarshotProtocol

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
