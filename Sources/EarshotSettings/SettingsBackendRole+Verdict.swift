extension SettingsBackendRole {
    /// Whether a text names a backend.
    enum Verdict: Equatable {
        case valid
        /// Neither a backend's name nor an address.
        case notABackend
        /// A server address that cannot be used, and why.
        case badAddress(String)
    }
}
