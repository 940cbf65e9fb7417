/// What reading the configuration file again changes in a running daemon: the keys it can
/// apply at once, the ones that wait for a restart, and the ones a command-line option pins.
public struct SettingsReload: Equatable, Sendable {
    /// The settings in force afterwards: the new values of `applied`, the old of the rest.
    public var inForce: Settings
    /// Changed keys the daemon applies now.
    public var applied: [SettingsKey]
    /// Changed keys that take effect at the next start; until then the old value stays.
    public var restartNeeded: [SettingsKey]
    /// Keys the file changed but a command-line option overrides: no effect.
    public var overridden: [SettingsKey]

    /// - Parameters:
    ///   - inForce: the settings the daemon runs with now.
    ///   - previousFile: what the file said when last read (defaults if there was none).
    ///   - newFile: what it says now.
    ///   - overrides: the command line's settings, which still win.
    public init(inForce: Settings, previousFile: Settings, newFile: Settings, overrides: SettingsOverrides) {
        overridden = newFile.changedKeys(since: previousFile).filter { overrides[$0] != nil }
        let wanted = newFile.applying(overrides)
        let changed = wanted.changedKeys(since: inForce)
        applied = changed.filter { $0.reload == .live }
        restartNeeded = changed.filter { $0.reload == .restart }
        var settings = inForce
        for key in applied { settings.set(key, to: wanted.value(of: key)) }
        self.inForce = settings
    }
}

/// What a running `earshotd` does with a changed value when it reloads the file (SIGHUP).
public enum SettingsReloadEffect: String, Equatable, Sendable {
    /// Applied at once (the endpointer between two frames, the language from the next utterance).
    case live
    /// Noted, and used from the next start.
    case restart
}
