import Foundation

/// A real Wayland text window to type into: a headless sway (wlroots, with the virtual-keyboard
/// protocol wtype speaks; software rendering, no input devices) and a GTK 3 text view in it,
/// focused, that writes its whole text to a file each time it changes
/// (Tests/Peers/dictation_window_gtk.py). sway refuses to run as root: as root, the compositor
/// and the window run as `nobody` (setpriv), and a program typing into them may stay root.
public final class WaylandTextWindow: TextWindow {
    /// What must be installed: `make deps` installs sway, wtype, python3-gi and gir1.2-gtk-3.0.
    public static var isAvailable: Bool { missing == nil }

    /// The first missing piece, in words; `nil` when all are there.
    public static var missing: String? {
        for program in ["/usr/bin/sway", "/usr/bin/wtype", "/usr/bin/python3", "/usr/bin/setpriv"]
        where !FileManager.default.isExecutableFile(atPath: program) {
            return "\(program) is missing (make deps installs sway, wtype, python3-gi and gir1.2-gtk-3.0)"
        }
        guard FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-3.0.typelib")
            || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/girepository-1.0/Gtk-3.0.typelib")
        else { return "GTK 3 for Python is missing (make deps installs python3-gi and gir1.2-gtk-3.0)" }
        return nil
    }

    static let script = RepositoryDirectory.path("Tests/Peers/dictation_window_gtk.py")

    let directory: String
    let runtime: String
    let display: String
    let compositor: ChildProcess
    let window: ChildProcess

    public init() throws {
        if let missing = Self.missing { throw X11TextWindow.Failure(description: missing) }
        directory = NSTemporaryDirectory() + "earshot-wayland-" + UUID().uuidString.prefix(8)
        runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try "output HEADLESS-1 resolution 1024x768\nxwayland disable\n".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        let asRoot = getuid() == 0
        if asRoot {
            for path in [directory, runtime, directory + "/config"] { chown(path, 65534, 65534) }
        }
        chmod(runtime, 0o700)
        // As root the compositor and the window run as nobody; otherwise as the user running the tests.
        let launcher = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let logs = directory
        func start(_ arguments: [String], _ environment: [String: String], log: String) throws -> ChildProcess {
            let command = launcher + arguments
            return try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, outputPath: logs + "/" + log)
        }
        let base = ["HOME": logs, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "LC_ALL": "C.UTF-8"]
        compositor = try start(
            ["/usr/bin/sway", "-c", logs + "/config"],
            base.merging(["WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"]) { $1 },
            log: "sway.log"
        )
        let deadline = ContinuousClock.now + .seconds(15)
        var socket: String?
        while socket == nil, compositor.isRunning, ContinuousClock.now < deadline {
            socket = (try? FileManager.default.contentsOfDirectory(atPath: runtime))?.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            if socket == nil { usleep(10_000) }
        }
        guard let socket else {
            throw X11TextWindow.Failure(description: "sway did not start: " + fileText(logs + "/sway.log"))
        }
        display = socket
        let ready = logs + "/ready"
        window = try start(
            ["/usr/bin/python3", Self.script, logs + "/text", ready],
            base.merging(["WAYLAND_DISPLAY": socket, "GDK_BACKEND": "wayland"]) { $1 }, log: "window.log"
        )
        while window.isRunning, !FileManager.default.fileExists(atPath: ready), ContinuousClock.now < deadline { usleep(10_000) }
        guard FileManager.default.fileExists(atPath: ready) else {
            throw X11TextWindow.Failure(description: "the GTK window did not take the focus: " + fileText(logs + "/window.log"))
        }
    }

    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": display, "XDG_RUNTIME_DIR": runtime, "XDG_SESSION_TYPE": "wayland", "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": directory]
    }

    public var text: String { fileText(directory + "/text") }

    deinit {
        window.terminate()
        compositor.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
