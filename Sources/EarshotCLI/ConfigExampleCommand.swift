import ArgumentParser
import EarshotSettings

struct ConfigExampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example",
        abstract: "Print a configuration file with every key commented out at its default.",
        discussion: "Start your own with: mkdir -p ~/.config/earshot && earshot config example > ~/.config/earshot/config.toml"
    )

    func run() {
        ConsoleOutput.line(String(SettingsExample.text.dropLast()))
    }
}
