import Glibc
import Synchronization

/// Ctrl-C, SIGTERM and SIGHUP while `watch` owns the terminal. The first asks the watch loop to
/// finish, so it restores the terminal itself; a second, should the loop be stuck waiting for the
/// daemon, restores the terminal right in the handler and exits.
enum InterruptSignals {
    static let received = Atomic<Int32>(0)
    /// The terminal mode to put back; set before the mode changes, read by the handler.
    nonisolated(unsafe) static var savedTerminalMode: termios?

    static var wereReceived: Bool { received.load(ordering: .relaxed) != 0 }

    static func install() throws(TerminalError) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            if InterruptSignals.received.exchange(signal, ordering: .relaxed) != 0 {
                InterruptSignals.restoreTerminalNow()
                _exit(128 + signal)
            }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // No SA_RESTART: a signal should cut a wait short.
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            guard sigaction(signal, &action, nil) == 0 else {
                throw TerminalError(action: "handle signal \(signal)", code: errno)
            }
        }
    }

    /// Only async-signal-safe calls: `write` and `tcsetattr`.
    static func restoreTerminalNow() {
        let showCursor: [UInt8] = Array(TerminalScreen.showCursor.utf8) + [13, 10]
        _ = showCursor.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if var mode = savedTerminalMode { tcsetattr(STDIN_FILENO, TCSANOW, &mode) }
    }
}
