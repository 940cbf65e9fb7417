import ArgumentParser
import EarshotDaemon

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration file, show where it is, or print a commented example.",
        subcommands: [ConfigCheckCommand.self, ConfigPathCommand.self, ConfigExampleCommand.self],
        defaultSubcommand: ConfigCheckCommand.self
    )
}

struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a configuration file and print the settings in effect.",
        discussion: """
            Prints FILE: OK and the settings it makes (the file's values, defaults for the rest), \
            or every problem, one per line as FILE:LINE:COLUMN: [section] key: what is wrong. \
            earshotd refuses a file with problems at start, with the same lines.
            Exit status: 0 valid (or no file at the default place: the defaults apply), 1 problems.
            """
    )

    @Argument(help: "The file (default: $XDG_CONFIG_HOME/earshot/config.toml).")
    var file: String?

    func run() throws {
        guard let path = file ?? SettingsLocation.defaultPath() else {
            ConsoleOutput.error("Neither XDG_CONFIG_HOME nor HOME is set, so there is no default configuration file: name one.")
            throw ExitCode(1)
        }
        let settings: Settings?
        do {
            settings = try SettingsFile.read(path: path)
        } catch {
            for problem in error.problems { ConsoleOutput.line(problem.description) }
            throw ExitCode(1)
        }
        guard let settings else {
            if file != nil {
                ConsoleOutput.line("\(path): no such file")
                throw ExitCode(1)
            }
            ConsoleOutput.line("\(path) does not exist, so the defaults apply (`earshot config example` prints a file to start from):")
            ConsoleOutput.line("")
            ConsoleOutput.line(String(Settings().rendered.dropLast()))
            return
        }
        ConsoleOutput.line("\(path): OK")
        ConsoleOutput.line("")
        ConsoleOutput.line(String(settings.rendered.dropLast()))
    }
}

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
