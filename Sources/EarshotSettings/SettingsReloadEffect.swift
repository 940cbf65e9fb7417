/// What a running `earshotd` does with a changed value when it reloads the file (SIGHUP).
public enum SettingsReloadEffect: String, Equatable, Sendable {
    /// Applied at once (the endpointer between two frames, the language from the next utterance).
    case live
    /// Noted, and used from the next start.
    case restart
}
