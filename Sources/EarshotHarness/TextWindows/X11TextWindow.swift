import Foundation

/// A real X11 text window to type into: a private Xvfb display (Unix socket only, no TCP) with a
/// Tk text widget that fills it, holds the keyboard focus, and writes its whole text to a file
/// each time it changes (Tests/Peers/dictation_window.py).
public final class X11TextWindow: TextWindow {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// What must be installed: `make deps` installs xvfb, xdotool and python3-tk.
    public static var isAvailable: Bool { missing == nil }

    /// The first missing piece, in words; `nil` when all are there.
    public static var missing: String? {
        for program in ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/python3"] where !FileManager.default.isExecutableFile(atPath: program) {
            return "\(program) is missing (make deps installs xvfb, xdotool and python3-tk)"
        }
        let tkinter = ["/usr/lib/python3/dist-packages/_tkinter.cpython-311-x86_64-linux-gnu.so", "/usr/lib/python3.11/lib-dynload/_tkinter.cpython-311-x86_64-linux-gnu.so"]
        guard tkinter.contains(where: FileManager.default.fileExists(atPath:)) else {
            return "python3's tkinter is missing (make deps installs python3-tk)"
        }
        return nil
    }

    static let script = RepositoryDirectory.path("Tests/Peers/dictation_window.py")

    /// The display, e.g. `:93`.
    public let display: String
    let directory: String
    let server: ChildProcess
    let window: ChildProcess

    public init() throws {
        if let missing = Self.missing { throw Failure(description: missing) }
        directory = NSTemporaryDirectory() + "earshot-x11-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var started: (String, ChildProcess)?
        for number in (0..<20).map({ _ in Int.random(in: 40...900) }) where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let server = try ChildProcess(
                "/usr/bin/Xvfb", [":\(number)", "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"],
                environment: [:], outputPath: directory + "/xvfb.log"
            )
            let socket = "/tmp/.X11-unix/X\(number)"
            let deadline = ContinuousClock.now + .seconds(10)
            while server.isRunning, !FileManager.default.fileExists(atPath: socket), ContinuousClock.now < deadline { usleep(10_000) }
            if server.isRunning, FileManager.default.fileExists(atPath: socket) {
                started = (":\(number)", server)
                break
            }
            server.terminate()
        }
        guard let (display, server) = started else {
            throw Failure(description: "Xvfb did not start: " + fileText(directory + "/xvfb.log"))
        }
        self.display = display
        self.server = server
        let ready = directory + "/ready"
        window = try ChildProcess(
            "/usr/bin/python3", [Self.script, directory + "/text", ready], environment: Self.environment(display: display, home: directory),
            outputPath: directory + "/window.log"
        )
        let deadline = ContinuousClock.now + .seconds(20)
        while window.isRunning, !FileManager.default.fileExists(atPath: ready), ContinuousClock.now < deadline { usleep(10_000) }
        guard FileManager.default.fileExists(atPath: ready) else {
            throw Failure(description: "the text window did not take the focus: " + fileText(directory + "/window.log"))
        }
    }

    /// The variables a program needs to type into the window.
    public var environment: [String: String] { Self.environment(display: display, home: directory) }

    static func environment(display: String, home: String) -> [String: String] {
        ["DISPLAY": display, "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "XDG_SESSION_TYPE": "x11"]
    }

    /// The window's whole text, as it was last written.
    public var text: String { fileText(directory + "/text") }

    deinit {
        window.terminate()
        server.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
