import EarshotSettings
import Synchronization

/// The settings the running daemon is under, and the file they are read from again on SIGHUP.
final class DaemonSettings: Sendable {
    private struct State {
        /// What the file said when last read successfully.
        var file: Settings
        var inForce: Settings
    }

    let path: String
    let overrides: SettingsOverrides
    private let state: Mutex<State>

    init(origin: SettingsOrigin) {
        path = origin.path
        overrides = origin.overrides
        state = Mutex(State(file: origin.file, inForce: origin.settings))
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
