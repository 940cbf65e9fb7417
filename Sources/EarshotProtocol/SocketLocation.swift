#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the daemon's socket lives: `$XDG_RUNTIME_DIR/earshot/earshot.sock`, or wherever
/// `--socket` says.
public enum SocketLocation {
    public static let directoryName = "earshot"
    public static let fileName = "earshot.sock"
    /// The web front door's token, beside the socket (see `earshot open`).
    public static let webTokenFileName = "web-token"

    /// The default path, from `$XDG_RUNTIME_DIR` (falling back to `/run/user/<uid>`, then the
    /// temporary directory, when it is unset). A nil `environment` means this process's.
    public static func defaultPath(environment: [String: String]? = nil) -> String {
        runtimeDirectory(environment: environment) + "/" + directoryName + "/" + fileName
    }

    /// The directory that holds `socket` ("." for a bare name): where the daemon keeps the files
    /// that go with it (the web token, libpulse's client configuration).
    public static func directory(ofSocket socket: String) -> String {
        let directory = socket.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory.isEmpty ? "." : directory
    }

    static func runtimeDirectory(environment: [String: String]?) -> String {
        func variable(_ name: String) -> String? {
            environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
        }
        if let runtime = variable("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") { return runtime }
        let perUser = "/run/user/\(getuid())"
        if access(perUser, F_OK) == 0 { return perUser }
        // The process's temporary directory, as Foundation's NSTemporaryDirectory() finds it.
        let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
    }
}
