import ArgumentParser

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration file, show where it is, or print a commented example.",
        subcommands: [ConfigCheckCommand.self, ConfigPathCommand.self, ConfigExampleCommand.self],
        defaultSubcommand: ConfigCheckCommand.self
    )
}
