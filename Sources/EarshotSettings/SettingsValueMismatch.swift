/// Why a value does not fit its key: "expected …, got …".
public struct SettingsValueMismatch: Error, Equatable, Sendable {
    public var message: String
}
