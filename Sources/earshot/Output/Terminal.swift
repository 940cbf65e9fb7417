import Glibc
import Synchronization

/// The terminal while `watch` draws on it: cursor hidden, keys read one at a time without echo,
/// each frame drawn over the last from the top-left corner, so nothing scrolls.
struct TerminalScreen {
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let home = "\u{1B}[H"
    static let clearToEndOfLine = "\u{1B}[K"
    static let clearToEndOfScreen = "\u{1B}[J"
    static let clearScreen = "\u{1B}[2J"

    /// The size to assume when the terminal does not say.
    static let fallbackSize = Size(columns: 80, rows: 24)

    struct Size: Equatable {
        var columns: Int
        var rows: Int
    }

    /// The keyboard's mode before `begin`; `nil` when standard input is no terminal.
    let savedMode: termios?

    /// Takes over the terminal: keys without echo or line editing, cursor hidden, screen cleared.
    static func begin() throws(TerminalError) -> TerminalScreen {
        var saved: termios?
        if isatty(STDIN_FILENO) == 1 {
            var mode = termios()
            guard tcgetattr(STDIN_FILENO, &mode) == 0 else {
                throw TerminalError(action: "read the terminal's mode", code: errno)
            }
            saved = mode
            InterruptSignals.savedTerminalMode = mode
            // ISIG stays on: Ctrl-C must still send SIGINT.
            mode.c_lflag &= ~tcflag_t(ECHO | ICANON)
            withUnsafeMutableBytes(of: &mode.c_cc) { controls in
                controls[Int(VMIN)] = 0
                controls[Int(VTIME)] = 0
            }
            guard tcsetattr(STDIN_FILENO, TCSANOW, &mode) == 0 else {
                throw TerminalError(action: "set the terminal's mode", code: errno)
            }
        }
        let screen = TerminalScreen(savedMode: saved)
        screen.write(hideCursor + clearScreen + home)
        return screen
    }

    /// Gives the terminal back as it was, the cursor on a fresh line below the last frame.
    func end() {
        write(Self.showCursor + "\r\n")
        if var mode = savedMode { tcsetattr(STDIN_FILENO, TCSANOW, &mode) }
        InterruptSignals.savedTerminalMode = nil
    }

    func size() -> Size {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return Self.fallbackSize
        }
        return Size(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }

    /// Draws `lines` over the previous frame: each line cleared to its end, everything below the
    /// last cleared, and no newline after the last row so the screen never scrolls.
    func draw(_ lines: [String], rows: Int) {
        var frame = Self.home
        let shown = lines.prefix(max(1, rows))
        for (index, line) in shown.enumerated() {
            frame += line + Self.clearToEndOfLine
            if index < shown.count - 1 { frame += "\r\n" }
        }
        write(frame + Self.clearToEndOfScreen)
    }

    /// The keys pressed since the last call (ASCII only; other bytes, e.g. arrow keys, skipped).
    func pendingKeys() -> [Character] {
        guard savedMode != nil else { return [] }
        var request = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, 0) > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        return bytes[0..<count].filter { $0 >= 0x20 && $0 < 0x7F }.map { Character(Unicode.Scalar($0)) }
    }

    func write(_ text: String) {
        ConsoleOutput.write(Array(text.utf8), to: STDOUT_FILENO)
    }
}

/// A terminal call that failed, with what it was for.
struct TerminalError: Error, CustomStringConvertible {
    var action: String
    var code: Int32

    var description: String {
        "Could not \(action): \(String(cString: strerror(code)))."
    }
}

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
