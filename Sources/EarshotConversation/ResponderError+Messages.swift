import Foundation

extension ResponderError {
    /// The error for a command that ended other than by exiting with status 0.
    static func ended(_ exit: ResponderExit, command: String, stderr: String) -> ResponderError {
        let name = displayName(of: command)
        switch exit {
        case .exited(127):
            return ResponderError(
                kind: .notFound, message: "The responder command was not found: \(name)" + quoted(stderr, as: " (%@).")
            )
        case .exited(126):
            return ResponderError(
                kind: .couldNotStart,
                message: "The responder \(name) could not be run (status 126)" + quoted(stderr, as: ": %@")
            )
        case .exited(let status):
            return ResponderError(
                kind: .failed(status: status),
                message: "The responder \(name) exited with status \(status)" + quoted(stderr, as: ": %@")
            )
        case .signaled(let signal):
            let signalName = signalNames[signal].map { " (\($0))" } ?? ""
            return ResponderError(
                kind: .killedBySignal(signal),
                message: "The responder \(name) was killed by signal \(signal)\(signalName)" + quoted(stderr, as: ": %@")
            )
        }
    }

    static func timedOut(command: String, after timeout: Duration) -> ResponderError {
        ResponderError(
            kind: .timedOut,
            message: "The responder \(displayName(of: command)) printed nothing for \(describe(timeout)) and was stopped."
        )
    }

    static func couldNotStart(command: String, errno code: Int32) -> ResponderError {
        ResponderError(
            kind: .couldNotStart,
            message: "The responder \(displayName(of: command)) could not be started: \(String(cString: strerror(code)))."
        )
    }

    /// The command in backquotes, on one line and shortened when long: a whole script pasted
    /// into the configuration would drown the message.
    static func displayName(of command: String) -> String {
        let line = command.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        return "`" + (line.count > 60 ? line.prefix(59) + "…" : line) + "`"
    }

    private static func quoted(_ stderr: String, as format: String) -> String {
        stderr.isEmpty ? "." : format.replacingOccurrences(of: "%@", with: stderr)
    }

    private static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds == 1 { return "1 second" }
        if seconds == seconds.rounded() { return "\(Int(seconds)) seconds" }
        return String(format: "%.1f seconds", seconds)
    }

    private static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGABRT: "SIGABRT",
        SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV",
        SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
    ]
}
