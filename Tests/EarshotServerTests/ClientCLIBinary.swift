import Foundation

/// The `earshot` binary under test: the one built beside the tests, or `EARSHOT_BINARY`.
enum ClientCLIBinary {
    static let url: URL? = {
        let named = ProcessInfo.processInfo.environment["EARSHOT_BINARY"].map { URL(fileURLWithPath: $0) }
        let besideTheTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("earshot")
        return [named, besideTheTests].compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
