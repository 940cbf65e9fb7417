import ArgumentParser
import EarshotClient
import EarshotProtocol
import Glibc

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the daemon is doing: state, audio, uptime, counters and the last errors.",
        discussion: """
            For a status bar: --format waybar prints the state as one JSON line for waybar's \
            custom module (text, alt, tooltip, class), --format plain as one word (i3blocks, \
            polybar); with --follow a new line whenever the state changes, "not running" while the \
            daemon is away, reconnecting by itself. \
            Exit status: 0 done, 3 the daemon is not running, 4 it could not be talked to \
            (with --format: 0, the line says so).
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Flag(help: "Print the daemon's response as it came: one JSON line.")
    var json = false

    @Option(
        help: ArgumentHelp("Print only the state, as a status bar reads it: waybar or plain.", valueName: "format"),
        transform: StatusCommand.parseFormat
    )
    var format: PanelFormat?

    @Flag(help: "Keep running and print the state again whenever it changes (plain unless --format says otherwise).")
    var follow = false

    func validate() throws {
        if json, format != nil || follow { throw ValidationError("--json prints the whole status once; it does not go with --format or --follow.") }
    }

    func run() throws {
        if follow || format != nil {
            var panel = PanelFollower(daemon: daemon, format: format ?? .plain)
            panel.run(once: !follow)
            return
        }
        let response = try daemon.withConnection { connection throws(ClientError) in try connection.request(.status) }
        if json {
            ConsoleOutput.line(response.line)
        } else {
            StatusSummary.lines(response.status).forEach { ConsoleOutput.line($0) }
        }
    }
}

extension StatusCommand {
    static func parseFormat(_ text: String) throws -> PanelFormat {
        guard let format = PanelFormat(rawValue: text) else {
            throw ValidationError("--format: no format '\(text)'; the formats are waybar and plain.")
        }
        return format
    }
}

/// `earshot status --format … [--follow]`: the state as a status bar reads it, a line each time
/// it changes, through the daemon's restarts.
struct PanelFollower {
    /// How long to wait before connecting again once the daemon is away: 1 s.
    static let retryMicroseconds: UInt32 = 1_000_000

    let daemon: DaemonOptions
    let format: PanelFormat
    private var shown: String?

    init(daemon: DaemonOptions, format: PanelFormat) {
        self.daemon = daemon
        self.format = format
    }

    /// Prints the state once (`once`), or follows it until the reader goes away.
    mutating func run(once: Bool) {
        while true {
            let away: ClientError
            do throws(ClientError) {
                try follow(once: once)
                return
            } catch {
                away = error
            }
            guard show(.notRunning(reason: Self.reason(away))), !once else { return }
            usleep(Self.retryMicroseconds)
        }
    }

    /// Subscribes before asking for the state, so no change falls between the two.
    private mutating func follow(once: Bool) throws(ClientError) {
        let connection = try daemon.connect()
        defer { connection.close() }
        if !once { try connection.subscribe(to: [.state]) }
        if let state = try connection.request(.status).status.state {
            guard show(.voice(state)), !once else { return }
        }
        if once { return }
        while true {
            guard let event = try connection.nextEvent(timeout: nil), case .state(let change)? = event.event else { continue }
            guard show(.voice(change.state)) else { return }
        }
    }

    /// Prints the status unless it is what is shown already; false once the reader has gone away.
    private mutating func show(_ status: PanelStatus) -> Bool {
        let line = status.line(format)
        guard line != shown else { return true }
        shown = line
        return ConsoleOutput.line(line)
    }

    static func reason(_ error: ClientError) -> String {
        switch error {
        case .daemonNotRunning: "nothing listens on its socket"
        case .connectionClosed: "it closed the connection (it stopped or restarted)"
        default: error.description
        }
    }
}
