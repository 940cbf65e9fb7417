import Foundation

/// A real text window to type into, whose text the tests read back: `X11TextWindow` (Xvfb) and
/// `WaylandTextWindow` (headless sway).
public protocol TextWindow: AnyObject {
    /// The variables a program needs to type into the window (its session).
    var environment: [String: String] { get }
    /// The window's whole text, as it was last written.
    var text: String { get }
}

extension TextWindow {
    /// Waits until the window holds `expected` (or `timeout` passes); returns its text then.
    public func text(becoming expected: String, within timeout: Duration = .seconds(20)) -> String {
        let deadline = ContinuousClock.now + timeout
        while text != expected, ContinuousClock.now < deadline { usleep(10_000) }
        return text
    }
}
