public import EarshotSettings

/// Where the daemon's settings came from: the configuration file, read again on SIGHUP, and
/// the command line's settings, which keep overriding it.
public struct SettingsOrigin: Sendable {
    /// The configuration file; when there is none, the defaults applied.
    public var path: String
    /// What the file said when read (the defaults when there was no file).
    public var file: Settings
    public var overrides: SettingsOverrides

    public init(path: String, file: Settings, overrides: SettingsOverrides) {
        self.path = path
        self.file = file
        self.overrides = overrides
    }

    /// The settings in force: the file's, with the command line's laid over them.
    public var settings: Settings { file.applying(overrides) }
}
