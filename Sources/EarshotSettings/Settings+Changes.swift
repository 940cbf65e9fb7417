extension Settings {
    /// The keys whose values differ between `earlier` and these settings, in the file's order.
    public func changedKeys(since earlier: Settings) -> [SettingsKey] {
        SettingsKey.all.filter { value(of: $0) != earlier.value(of: $0) }
    }
}
