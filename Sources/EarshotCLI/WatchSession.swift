import EarshotClient
import EarshotProtocol

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
