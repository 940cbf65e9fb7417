/// The settings given on `earshotd`'s command line: they win over the file, at start and at
/// every reload.
public struct SettingsOverrides: Equatable, Sendable {
    private var byKey: [SettingsKey: SettingsValue] = [:]

    public init() {}

    public subscript(key: SettingsKey) -> SettingsValue? {
        get { byKey[key] }
        set { byKey[key] = newValue }
    }

    /// The keys overridden, in the file's order.
    public var keys: [SettingsKey] { SettingsKey.all.filter { byKey[$0] != nil } }

    /// The overrides, in the file's order.
    public var values: [(key: SettingsKey, value: SettingsValue)] {
        keys.compactMap { key in byKey[key].map { (key, $0) } }
    }

    public var isEmpty: Bool { byKey.isEmpty }
}
