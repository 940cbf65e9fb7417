import ArgumentParser
import EarshotSettings

struct ConfigPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print where earshotd looks for its configuration file."
    )

    func run() throws {
        guard let path = SettingsLocation.defaultPath() else {
            ConsoleOutput.error("Neither XDG_CONFIG_HOME nor HOME is set: earshotd has no default configuration file.")
            throw ExitCode(1)
        }
        ConsoleOutput.line(path)
    }
}
