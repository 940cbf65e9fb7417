import Foundation

extension VoiceCatalog {
    /// Where the bundled voice files are: `explicit` when given (used as is, so a wrong path
    /// is reported when loading), else `../share/earshot/voices` beside the running executable
    /// (an installed Earshot: `/usr/bin/earshotd` → `/usr/share/earshot/voices`), else the
    /// `voices/` directory of the source checkout this file was compiled from (a development
    /// build run from `.build/`). Nil when neither exists.
    public static func bundledDirectory(explicit: String? = nil, executablePath: String? = nil) -> String? {
        if let explicit { return explicit }
        let executable = executablePath.map { URL(fileURLWithPath: $0) } ?? Bundle.main.executableURL
        if let executable {
            let installed = executable.resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("../share/earshot/voices").standardizedFileURL.path
            if isDirectory(installed) { return installed }
        }
        return isDirectory(checkoutDirectory) ? checkoutDirectory : nil
    }

    /// `voices/` at the root of the source checkout: this file is `Sources/EarshotVoices/…`.
    static let checkoutDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("voices").path

    /// `$XDG_CONFIG_HOME/earshot/voices`, or `$HOME/.config/earshot/voices` when
    /// `XDG_CONFIG_HOME` is unset, empty or relative (as the XDG spec says to ignore it);
    /// nil without either. A nil `environment` means this process's.
    public static func userDirectory(environment: [String: String]? = nil) -> String? {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("earshot/voices").path
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/earshot/voices").path
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
