public import Foundation

/// Where the daemon keeps debug recordings.
public enum RecordingLocation {
    /// `$XDG_STATE_HOME/earshot/recordings`, or `$HOME/.local/state/earshot/recordings` when
    /// `XDG_STATE_HOME` is unset, empty or relative (the XDG spec says to ignore it then), or the
    /// account's home directory when `HOME` is unset too.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("earshot/recordings").path
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/earshot/recordings").path
    }
}
