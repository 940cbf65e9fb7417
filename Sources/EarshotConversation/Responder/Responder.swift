import Dispatch
import EarshotBase
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers final transcripts with a command of the user's, so a conversation can be held
/// hands-free without a front end: the command runs once per turn, reads the transcript, and
/// each line it prints is spoken as soon as it arrives (an LLM-backed script can stream).
///
/// The command is run as `/bin/sh -c COMMAND` (so it may be a pipeline, or use variables and
/// redirections), in a process group of its own so that stopping it also stops what it started.
/// - stdin: the transcript followed by one newline (`read line` gets it whole), then end of file.
/// - environment: `environment`, or when nil the daemon's own, plus `EARSHOT_TURN` (the turn).
/// - stdout: the reply, as UTF-8 lines (invalid bytes become U+FFFD); a long line is split into
///   sentences, and a line over 64 KiB is cut into pieces.
/// - stderr: its last 2 KiB are quoted when the command fails.
///
/// `timeout` bounds silence, not the whole reply: the command is stopped when it has printed
/// nothing on stdout for that long, counted from its start and again from each output.
public final class Responder: Sendable {
    public let command: String
    public let environment: [String: String]?
    public let timeout: Duration

    public init(command: String, environment: [String: String]? = nil, timeout: Duration) {
        self.command = command
        self.environment = environment
        self.timeout = timeout
    }

    /// Runs the command for `turn` and streams the speakable pieces (sentences) of its reply.
    ///
    /// The stream finishes once the command has exited with status 0 and its stdout is closed
    /// (printing nothing is a valid "no reply"). It fails with a `ResponderError` when the command
    /// cannot start or is not found, exits with another status, is killed by a signal, or times
    /// out. When iteration stops early (the task is cancelled, the stream dropped), the command's
    /// process group gets SIGTERM, then SIGKILL a second later, and the command is reaped.
    /// Whatever the command leaves running after a successful reply is left alone.
    public func respond(turn: Int, transcript: String) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let cancellation: ResponderCancellation
        do {
            cancellation = try ResponderCancellation(command: command)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { cancellation.cancel() }
        }
        var environment = environment ?? Self.processEnvironment
        environment["EARSHOT_TURN"] = String(turn)
        let input = Array((transcript + "\n").utf8)
        let (command, timeout, turnEnvironment) = (command, timeout, environment)
        // Reading waits on the command for as long as it runs: a queue of its own (which dispatch
        // gives a thread) keeps that off the few threads Swift concurrency shares.
        DispatchQueue(label: "earshot-responder").async {
            ResponderSession.run(
                command: command, environment: turnEnvironment, timeout: timeout, input: input,
                cancellation: cancellation, continuation: continuation
            )
        }
        return stream
    }

    /// This process's environment variables, as `environ` holds them.
    private static var processEnvironment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}

/// Why the responder command gave no (complete) reply, in words fit to show the user.
public struct ResponderError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The shell could not find the command (it exited with status 127).
        case notFound
        /// The command exited with a status other than 0.
        case failed(status: Int32)
        case killedBySignal(Int32)
        /// The command printed nothing for the responder's timeout and was stopped.
        case timedOut
        /// The command could not be started or run at all (no pipe, no process, status 126).
        case couldNotStart
    }

    public let kind: Kind
    public let message: String

    public var description: String { message }

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

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
        let joined = command.split(whereSeparator: \.isNewline).joined(separator: " ")
        let line = joined.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return "`" + (line.count > 60 ? String(line.prefix(59)) + "…" : String(line)) + "`"
    }

    private static func quoted(_ stderr: String, as format: String) -> String {
        stderr.isEmpty ? "." : format.replacing("%@", with: stderr)
    }

    private static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds == 1 { return "1 second" }
        if seconds == seconds.rounded() { return "\(Int(seconds)) seconds" }
        return DecimalText.fixed(seconds, decimals: 1) + " seconds"
    }

    private static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGABRT: "SIGABRT",
        SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV",
        SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
    ]
}

/// How the responder command's shell ended, decoded from `waitpid`'s status.
enum ResponderExit: Equatable, Sendable {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
