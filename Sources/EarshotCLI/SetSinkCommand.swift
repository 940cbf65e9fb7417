import ArgumentParser

struct SetSinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-sink",
        abstract: "Play to a named sink, or with --default follow the server's default.",
        discussion: "`earshot devices` lists the names. Exit status: 0 done, 1 refused (e.g. no such device), 3 the daemon is not running."
    )

    @Argument(help: "The sink's name.")
    var name: String?

    @Flag(name: .customLong("default"), help: "Follow the sound server's default sink.")
    var followDefault = false

    @OptionGroup var daemon: DaemonOptions

    func validate() throws {
        guard (name != nil) != followDefault else { throw ValidationError("Give a sink name or --default, not both or neither.") }
    }

    func run() throws {
        try RouteRequest.run("set-sink", key: "sink", name: name, daemon)
    }
}
