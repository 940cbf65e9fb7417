import EarshotBase
import EarshotProtocol

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

/// The settings the running daemon is under, and the file they are read from again on SIGHUP.
final class DaemonSettings: Sendable {
    private struct State {
        /// What the file said when last read successfully.
        var file: Settings
        var inForce: Settings
    }

    let path: String
    let overrides: SettingsOverrides
    private let state: Locked<State>

    init(origin: SettingsOrigin) {
        path = origin.path
        overrides = origin.overrides
        state = Locked(State(file: origin.file, inForce: origin.settings))
    }

    var inForce: Settings { state.withLock { $0.inForce } }

    /// Reads the file again (no file: the defaults) and works out what changes; nothing is
    /// in force until `commit`.
    func prepareReload() -> Result<(file: Settings, reload: SettingsReload), SettingsFileError> {
        let file: Settings
        do {
            file = try SettingsFile.read(path: path) ?? Settings()
        } catch {
            return .failure(error)
        }
        return state.withLock { state in
            .success((file, SettingsReload(inForce: state.inForce, previousFile: state.file, newFile: file, overrides: overrides)))
        }
    }

    /// Puts a prepared reload in force.
    func commit(file: Settings, inForce: Settings) {
        state.withLock { $0 = State(file: file, inForce: inForce) }
    }
}

// MARK: Status

extension DaemonSettings {
    /// The settings in force as `status` reports them: by section, an unset key as null.
    var inForceForStatus: DaemonStatus.Settings {
        let settings = inForce
        return DaemonStatus.Settings(sections: SettingsKey.sections.map { section in
            DaemonStatus.Settings.Section(name: section, settings: SettingsKey.keys(in: section).map { key in
                DaemonStatus.Settings.Setting(key: key.name, value: settings.value(of: key).map(Self.statusValue) ?? .unset)
            })
        })
    }

    static func statusValue(_ value: SettingsValue) -> DaemonStatus.Settings.Value {
        switch value {
        case .text(let text): .text(text)
        case .integer(let integer): .number(JSONNumber(integer))
        case .number(let number): .number(JSONNumber(number, decimals: decimals(number)))
        case .flag(let flag): .flag(flag)
        }
    }

    /// The fewest decimals (up to 3) that write `number` as it is: 15, 0.5, 0.125.
    private static func decimals(_ number: Double) -> Int {
        for decimals in 0..<3 {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            if (number * scale).rounded() == number * scale { return decimals }
        }
        return 3
    }
}
