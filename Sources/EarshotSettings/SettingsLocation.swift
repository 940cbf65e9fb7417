import Foundation

/// Where the configuration file is looked for.
public enum SettingsLocation {
    /// `$XDG_CONFIG_HOME/earshot/config.toml`, or `$HOME/.config/earshot/config.toml` when
    /// `XDG_CONFIG_HOME` is unset, empty or relative (the XDG spec says to ignore it then); nil
    /// without either. A nil `environment` means this process's.
    public static func defaultPath(environment: [String: String]? = nil) -> String? {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("earshot/config.toml").path
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/earshot/config.toml").path
    }
}
