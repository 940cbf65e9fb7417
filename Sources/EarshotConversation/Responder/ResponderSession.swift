import EarshotSpeech
import Glibc

/// One run of the responder command, on a thread of its own: feeds it the transcript, turns its
/// stdout into sentences as lines arrive, and watches for its exit, its silence and the
/// consumer's cancellation, all in one `poll` loop.
struct ResponderSession {
    let command: String
    let timeout: Duration
    let cancellation: ResponderCancellation
    let continuation: AsyncThrowingStream<String, any Error>.Continuation
    var child: ResponderChild
    var input: [UInt8]
    var inputWritten = 0
    var lines = ResponderLineBuffer()
    var splitter = SentenceSplitter()
    var errors = ResponderOutputTail()
    /// When the command is stopped unless it prints something first.
    var deadline: ContinuousClock.Instant

    static func run(
        command: String, environment: [String: String], timeout: Duration, input: [UInt8],
        cancellation: ResponderCancellation, continuation: AsyncThrowingStream<String, any Error>.Continuation
    ) {
        blockBrokenPipeSignal()
        let child: ResponderChild
        do {
            child = try ResponderChild(command: command, environment: environment)
        } catch {
            continuation.finish(throwing: error)
            return
        }
        var session = ResponderSession(
            command: command, timeout: timeout, cancellation: cancellation, continuation: continuation,
            child: child, input: input, deadline: .now + timeout
        )
        let failure = session.converse()
        session.child.closeAll()
        if let failure {
            continuation.finish(throwing: failure)
        } else {
            session.speak(session.splitter.finish())
            continuation.finish()
        }
    }

    /// Runs the exchange to its end: nil when the command replied (or the reply is no longer
    /// wanted), otherwise why it failed. The shell has been reaped when this returns.
    private mutating func converse() -> ResponderError? {
        while true {
            var watched = [pollfd(fd: cancellation.readEnd, events: Int16(POLLIN), revents: 0)]
            for descriptor in [child.output, child.errors] where descriptor >= 0 {
                watched.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
            }
            if child.input >= 0 { watched.append(pollfd(fd: child.input, events: Int16(POLLOUT), revents: 0)) }
            if poll(&watched, nfds_t(watched.count), pollTimeout()) < 0, errno != EINTR {
                let code = errno
                child.stopGroup()
                return .couldNotStart(command: command, errno: code)
            }
            if watched[0].revents != 0 {
                child.stopGroup()
                return nil
            }
            for entry in watched.dropFirst() where entry.revents != 0 {
                switch entry.fd {
                case child.output: readOutput()
                case child.errors: readErrors()
                default: writeInput()
                }
            }
            child.reapIfExited()
            if let exit = child.exit {
                if exit != .exited(0) {
                    readErrors(untilEmpty: true)
                    // Whatever it started may still hold the pipes; it goes with the failure.
                    child.stopGroup()
                    return .ended(exit, command: command, stderr: errors.text)
                }
                if child.output < 0 { return nil }
            }
            if ContinuousClock.now >= deadline {
                child.stopGroup()
                return .timedOut(command: command, after: timeout)
            }
        }
    }

    /// Milliseconds until the deadline, shorter while the shell is still to be reaped (its exit
    /// wakes nobody): briefly once its stdout is closed, since it is about to exit.
    private func pollTimeout() -> Int32 {
        let remaining = (deadline - .now) / .milliseconds(1)
        var milliseconds = max(0, min(remaining.rounded(.up), Double(Int32.max)))
        if child.exit == nil { milliseconds = min(milliseconds, child.output < 0 ? 5 : 100) }
        return Int32(milliseconds)
    }

    private mutating func readOutput() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = read(child.output, &buffer, buffer.count)
        if count > 0 {
            deadline = .now + timeout
            for line in lines.append(buffer[..<count]) { speak(splitter.append(line + "\n")) }
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            if let last = lines.finish() { speak(splitter.append(last)) }
            child.closeOutput()
        }
    }

    private mutating func readErrors(untilEmpty: Bool = false) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while child.errors >= 0 {
            let count = read(child.errors, &buffer, buffer.count)
            if count > 0 {
                errors.append(buffer[..<count])
                if untilEmpty { continue }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                child.closeErrors()
            }
            return
        }
    }

    private mutating func writeInput() {
        let count = input[inputWritten...].withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) }
        if count >= 0 {
            inputWritten += count
            if inputWritten == input.count { child.closeInput() }
        } else if errno != EAGAIN && errno != EINTR {
            // The command closed its stdin without reading it all, which is its right.
            if errno == EPIPE { Self.discardBrokenPipeSignal() }
            child.closeInput()
        }
    }

    private func speak(_ pieces: [String]) {
        for piece in pieces { continuation.yield(piece) }
    }

    /// Writing to a command that stopped reading raises SIGPIPE, which would end the daemon:
    /// blocked on this thread, it stays pending here (a write's SIGPIPE goes to the writing
    /// thread) until taken back by `discardBrokenPipeSignal`.
    private static func blockBrokenPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    private static func discardBrokenPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        var noWait = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&signals, nil, &noWait)
    }
}

/// A pipe that wakes the responder's reading thread when the reply is no longer wanted: the
/// thread polls it together with the command's output. Its ends are closed only when neither the
/// thread nor the stream's termination handler holds it, so a late `cancel` never writes into a
/// descriptor number reused by someone else.
final class ResponderCancellation: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init(command: String) throws(ResponderError) {
        guard let ends = ResponderPipe.make(nonBlocking: true) else {
            throw ResponderError.couldNotStart(command: command, errno: errno)
        }
        readEnd = ends.read
        writeEnd = ends.write
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func cancel() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
