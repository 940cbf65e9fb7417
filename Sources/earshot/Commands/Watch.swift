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

/// `earshot watch`'s loop: events and keys in, a frame out at most ~30 times a second.
struct WatchSession {
    static let frameInterval: Duration = .milliseconds(33)
    /// How often the uptime, the audio route and the errors are refreshed from `status`.
    static let statusInterval: Duration = .seconds(1)
    /// The longest wait with nothing to draw, so Ctrl-C, keys and resizes are noticed promptly.
    static let idleWait: Duration = .milliseconds(100)

    let connection: DaemonConnection
    let terminal: TerminalScreen
    var model: WatchModel
    let screen = WatchScreen()

    /// Runs until Ctrl-C or `q` (returns `nil`) or until the daemon goes away (returns why; the
    /// last frame says so too).
    mutating func run() -> ClientError? {
        let clock = ContinuousClock()
        var nextFrame = clock.now
        var nextStatus = clock.now.advanced(by: Self.statusInterval)
        var needsDrawing = true
        var size = terminal.size()
        do throws(ClientError) {
            while !InterruptSignals.wereReceived {
                for key in terminal.pendingKeys() {
                    if key == WatchKeys.quit { return nil }
                    if let command = WatchKeys.command(for: key, in: model) {
                        try send(command)
                        needsDrawing = true
                    }
                }
                let currentSize = terminal.size()
                if currentSize != size {
                    size = currentSize
                    needsDrawing = true
                }
                var now = clock.now
                if now >= nextStatus {
                    model.apply(status: try connection.request(.status).status)
                    nextStatus = now.advanced(by: Self.statusInterval)
                    needsDrawing = true
                }
                if needsDrawing, now >= nextFrame {
                    terminal.draw(screen.render(model, width: size.columns), rows: size.rows)
                    needsDrawing = false
                    nextFrame = now.advanced(by: Self.frameInterval)
                }
                now = clock.now
                let wake = min(needsDrawing ? nextFrame : now.advanced(by: Self.idleWait), nextStatus)
                if let event = try connection.nextEvent(timeout: max(.zero, now.duration(to: wake))) {
                    model.apply(event)
                    needsDrawing = true
                }
            }
            return nil
        } catch {
            model.connectionLost(Self.reason(error))
            terminal.draw(screen.render(model, width: size.columns), rows: size.rows)
            return error
        }
    }

    /// Sends a command chosen with a key; a refusal is shown, not fatal.
    mutating func send(_ command: Command) throws(ClientError) {
        do {
            let response = try connection.request(command)
            model.notice = nil
            if let state = response.state { model.apply(state: state) }
        } catch .commandFailed(_, _, let message) {
            model.notice = "\(command.name): \(message)"
        }
    }

    /// Why the daemon is gone, short enough for the headline.
    static func reason(_ error: ClientError) -> String {
        switch error {
        case .connectionClosed: "it closed the connection (it stopped or restarted)."
        case .timedOut(let request, _): "it did not answer \(request) in time."
        default: error.description
        }
    }
}
