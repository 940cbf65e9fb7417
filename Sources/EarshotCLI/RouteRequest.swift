import ArgumentParser
import EarshotClient

/// What `set-source` and `set-sink` share: name a device, or go back to following the default.
enum RouteRequest {
    static func run(_ command: String, key: String, name: String?, _ daemon: DaemonOptions) throws {
        let response = try daemon.withConnection { connection throws(ClientError) in
            try connection.request(command, ["name": name.map(JSON.string) ?? .null])
        }
        let inUse = response[key]?.string ?? "?"
        let following = response["following_default"]?.bool == true
        ConsoleOutput.line(following ? "\(key) \(inUse) (following the default)" : "\(key) \(inUse)")
    }
}
