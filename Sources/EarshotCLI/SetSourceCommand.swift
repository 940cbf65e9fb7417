import ArgumentParser

struct SetSourceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-source",
        abstract: "Record from a named source, or with --default follow the server's default.",
        discussion: "`earshot devices` lists the names. Exit status: 0 done, 1 refused (e.g. no such device), 3 the daemon is not running."
    )

    @Argument(help: "The source's name.")
    var name: String?

    @Flag(name: .customLong("default"), help: "Follow the sound server's default source.")
    var followDefault = false

    @OptionGroup var daemon: DaemonOptions

    func validate() throws {
        guard (name != nil) != followDefault else { throw ValidationError("Give a source name or --default, not both or neither.") }
    }

    func run() throws {
        try RouteRequest.run("set-source", key: "source", name: name, daemon)
    }
}
