import Foundation

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
        var environment = environment ?? ProcessInfo.processInfo.environment
        environment["EARSHOT_TURN"] = String(turn)
        let input = Array((transcript + "\n").utf8)
        let (command, timeout, turnEnvironment) = (command, timeout, environment)
        // Reading waits on the command for as long as it runs: a thread of its own keeps that
        // off the few threads Swift concurrency shares.
        let thread = Thread {
            ResponderSession.run(
                command: command, environment: turnEnvironment, timeout: timeout, input: input,
                cancellation: cancellation, continuation: continuation
            )
        }
        thread.name = "earshot-responder"
        thread.start()
        return stream
    }
}
