import ArgumentParser
import EarshotClient
import EarshotProtocol
import Glibc

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "A live view of the daemon: state and controls, level meters, the last utterance and errors.",
        discussion: """
            Redraws in place up to 30 times a second. The keys of the controls on offer send them: \
            v start, s stop, c cancel, d dismiss, m mute or unmute. q or Ctrl-C quits. When the \
            daemon goes away the view says so and exits with status 4; status 3: the daemon is not \
            running.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "Level readings per second for the meters, 1 to 60.")
    var levelHz = 30

    func validate() throws {
        guard (1...60).contains(levelHz) else {
            throw ValidationError("--level-hz must be between 1 and 60 (got \(levelHz)).")
        }
    }

    func run() throws {
        var model = WatchModel(socketPath: daemon.socket)
        let connection: DaemonConnection
        do {
            connection = try daemon.connect()
            model.apply(status: try connection.request(.status).status)
            try connection.subscribe(levelHz: levelHz)
        } catch {
            throw DaemonExitStatus.report(error)
        }
        defer { connection.close() }
        guard isatty(STDOUT_FILENO) == 1 else {
            ConsoleOutput.error("earshot watch draws on a terminal; for the events as JSON lines use `earshot events`.")
            throw ExitCode.validationFailure
        }

        try InterruptSignals.install()
        let terminal = try TerminalScreen.begin()
        var session = WatchSession(connection: connection, terminal: terminal, model: model)
        let failure = session.run()
        terminal.end()
        if let failure {
            ConsoleOutput.error("The Earshot daemon went away: " + WatchSession.reason(failure))
            throw DaemonExitStatus.status(for: failure)
        }
    }
}
