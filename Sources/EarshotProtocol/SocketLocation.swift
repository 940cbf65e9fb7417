public import Foundation

/// Where the daemon's socket lives: `$XDG_RUNTIME_DIR/earshot/earshot.sock`, or wherever
/// `--socket` says.
public enum SocketLocation {
    public static let directoryName = "earshot"
    public static let fileName = "earshot.sock"

    /// The default path, from `$XDG_RUNTIME_DIR` (falling back to `/run/user/<uid>`, then the
    /// temporary directory, when it is unset).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        runtimeDirectory(environment: environment) + "/" + directoryName + "/" + fileName
    }

    static func runtimeDirectory(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime }
        let perUser = "/run/user/\(getuid())"
        if FileManager.default.fileExists(atPath: perUser) { return perUser }
        return NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
    }
}
