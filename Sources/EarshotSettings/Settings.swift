/// Everything the configuration file can say, with the defaults `earshotd` uses when it says
/// nothing. One nested struct per section of the file (`[audio]`, `[listening]`, …).
public struct Settings: Equatable, Sendable {
    public var audio = Audio()
    public var listening = Listening()
    public var transcription = Transcription()
    public var speech = Speech()
    public var replies = Replies()
    public var daemon = Daemon()
    public var privacy = Privacy()

    public init() {}

    /// The value of `key`, nil when it is an optional setting left unset.
    public func value(of key: SettingsKey) -> SettingsValue? {
        key.read(self)
    }

    /// Sets `key` to `value`, which must be of the key's kind (a flag for a flag, …); nil
    /// unsets an optional key.
    public mutating func set(_ key: SettingsKey, to value: SettingsValue?) {
        key.write(&self, value)
    }

    /// These settings with the command line's laid over them.
    public func applying(_ overrides: SettingsOverrides) -> Settings {
        var settings = self
        for (key, value) in overrides.values { settings.set(key, to: value) }
        return settings
    }
}
