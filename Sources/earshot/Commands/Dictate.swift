import ArgumentParser
import EarshotClient
import EarshotProtocol
import Foundation

struct DictateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dictate",
        abstract: "Type what you say into the focused window, until `earshot dictate --stop` or a dismiss.",
        discussion: """
            Each final transcript is typed where the keyboard focus is, with a space between turns \
            and the first letter of a sentence capitalised. Say "new line" or "new paragraph" for line \
            breaks, and "scratch that" to remove the last turn's text. Voice mode is switched on if it \
            is off (and off again at --stop). The typing tool suits the session: wtype on Wayland \
            (ydotool on GNOME), xdotool on X11; --typer chooses. One line per typed turn is printed. \
            Exit status: 0 stopped (--stop, Ctrl-C, or voice mode dismissed), 1 typing failed or \
            nothing to stop, 2 dictation is already running, 3 the daemon is not running, 4 it could \
            not be talked to.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(
        help: ArgumentHelp("The typing tool: wtype, ydotool or xdotool (default: the one that suits the session).", valueName: "tool"),
        transform: DictateCommand.parseTyper
    )
    var typer: DictationTyper?

    @Flag(help: "Stop the dictation running for this daemon.")
    var stop = false

    @Option(name: .customLong("try"), help: ArgumentHelp("Type TEXT once, as dictation would, and exit: checks the typing tool without the daemon.", valueName: "text"))
    var tryText: String?

    func run() throws {
        let pidFile = DictationPIDFile(socket: daemon.socket)
        if stop { return try pidFile.stopRunning() }
        let environment = ProcessInfo.processInfo.environment
        var keyboard = try DictationKeyboard(choosing: typer, environment: environment)
        if let tryText {
            var text = DictationText()
            if let failure = keyboard.perform(text.type(tryText)) { throw failure.exitAfterSaying() }
            return
        }
        let connection: DaemonConnection
        do {
            connection = try daemon.connect()
        } catch {
            throw DaemonExitStatus.report(error)
        }
        defer { connection.close() }
        try pidFile.claim()
        defer { pidFile.release() }
        var startedVoiceMode = false
        do {
            try connection.subscribe(to: [.state, .speech, .transcript])
            let status = try connection.request(.status)
            if status.state?.phase == .idle {
                try connection.request(.start)
                startedVoiceMode = true
            }
            if let replies = status["backends"]?["replies"]?.stringValue, replies != "front ends" {
                ConsoleOutput.error("Note: the daemon also answers what you say (replies: \(replies)); its replies will be spoken while you dictate.")
            }
        } catch {
            throw DaemonExitStatus.report(error)
        }
        try InterruptSignals.install()
        ConsoleOutput.line("Dictating with \(keyboard.typer.rawValue): speak, and each turn is typed into the focused window. `earshot dictate --stop` stops.")
        var session = DictationSession(connection: connection, keyboard: keyboard)
        switch session.run() {
        case .stopped:
            if startedVoiceMode { _ = try? connection.request(.dismiss) }
            ConsoleOutput.line("Dictation stopped.")
        case .dismissed:
            ConsoleOutput.line("Voice mode was switched off: dictation stopped.")
        case .daemonLost(let error):
            ConsoleOutput.error("The Earshot daemon went away: " + WatchSession.reason(error))
            throw DaemonExitStatus.status(for: error)
        case .typingFailed(let failure):
            if startedVoiceMode { _ = try? connection.request(.dismiss) }
            throw failure.exitAfterSaying()
        }
    }
}

extension DictateCommand {
    static func parseTyper(_ name: String) throws -> DictationTyper {
        guard let typer = DictationTyper(rawValue: name) else {
            throw ValidationError("--typer: no tool '\(name)'; the tools are wtype, ydotool and xdotool.")
        }
        return typer
    }
}

/// Dictation's event loop: the daemon's events in, typed turns out.
struct DictationSession {
    enum Ending {
        case stopped, dismissed
        case daemonLost(ClientError)
        case typingFailed(DictationKeyboard.Failure)
    }

    let connection: DaemonConnection
    var keyboard: DictationKeyboard
    var turns = DictationTurns()
    var text = DictationText()
    /// When each held final transcript was sent (the daemon's wall clock), for the figure printed
    /// with each typed turn.
    var finalSentAt: [Int: Double] = [:]

    init(connection: DaemonConnection, keyboard: DictationKeyboard) {
        self.connection = connection
        self.keyboard = keyboard
    }

    mutating func run() -> Ending {
        while !InterruptSignals.wereReceived {
            let event: DaemonEvent
            do {
                guard let next = try connection.nextEvent(timeout: .milliseconds(100)) else { continue }
                event = next
            } catch {
                return .daemonLost(error)
            }
            guard let input = Self.input(from: event) else { continue }
            if case .finalTranscript(let turn, _) = input { finalSentAt[turn] = event.wall }
            switch turns.handle(input) {
            case .none: continue
            case .finish: return .dismissed
            case .type(let turn, let transcript):
                let typingStarted = ContinuousClock.now
                if let failure = keyboard.perform(text.type(transcript)) { return .typingFailed(failure) }
                let typing = (ContinuousClock.now - typingStarted) / .milliseconds(1)
                let sent = finalSentAt.removeValue(forKey: turn)
                finalSentAt = finalSentAt.filter { $0.key > turn }
                let after = sent.map { String(format: "%.0f ms after its transcript, ", (Date().timeIntervalSince1970 - $0) * 1000) } ?? ""
                ConsoleOutput.line("typed turn \(turn) (\(after)\(String(format: "%.0f", typing)) ms typing): \(transcript)")
            }
        }
        return .stopped
    }

    /// The dictation input an event is, if any.
    static func input(from event: DaemonEvent) -> DictationTurns.Input? {
        let turn = event["turn"]?.integerValue
        switch event.kind {
        case "speech":
            guard let turn else { return nil }
            switch event["phase"]?.stringValue {
            case "end": return .utteranceEnded(turn: turn)
            case "resumed": return .utteranceResumed(turn: turn)
            default: return nil
            }
        case "transcript":
            guard let turn, event["final"]?.boolValue == true, let text = event["text"]?.stringValue else { return nil }
            return .finalTranscript(turn: turn, text: text)
        case "state":
            return event["state"]?.stringValue == "idle" ? .voiceModeOff : nil
        default:
            return nil
        }
    }
}
