/// One key of the configuration file: where it sits, what it takes, the `earshotd` flag that
/// overrides it, and how the daemon takes a change to it on reload.
public struct SettingsKey: Hashable, Sendable, CustomStringConvertible {
    /// The section's name, without brackets: `listening`.
    public let section: String
    /// The key's name within its section: `end_silence_ms`.
    public let name: String
    public let kind: SettingsValueKind
    /// The `earshotd` option that overrides the file: `--end-silence-ms`.
    public let flag: String
    /// What it does, in one line, for the example file.
    public let summary: String
    /// What leaving it out means, for a key with no default value ("libpulse's own choice").
    public let unsetMeaning: String?
    /// A value to show, commented, in the example file when there is no default to show.
    public let example: SettingsValue?
    public let reload: SettingsReloadEffect
    let read: @Sendable (Settings) -> SettingsValue?
    /// Sets the value; nil unsets an optional key (and is ignored by the others).
    let write: @Sendable (inout Settings, SettingsValue?) -> Void

    /// `listening.end_silence_ms`: the key's path, as events and `status` name it.
    public var path: String { "\(section).\(name)" }

    /// `[listening] end_silence_ms`: how problems name it.
    public var description: String { "[\(section)] \(name)" }

    /// Its value when the file does not set it; nil for an optional key.
    public var defaultValue: SettingsValue? { read(Settings()) }

    public static func == (lhs: SettingsKey, rhs: SettingsKey) -> Bool { lhs.path == rhs.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// The key at `path` (`listening.end_silence_ms`), if there is one.
    public static func named(_ path: String) -> SettingsKey? {
        all.first { $0.path == path }
    }

    /// The sections, in the file's order.
    public static var sections: [String] {
        var seen: [String] = []
        for key in all where !seen.contains(key.section) { seen.append(key.section) }
        return seen
    }

    /// The keys of `section`, in the file's order.
    public static func keys(in section: String) -> [SettingsKey] {
        all.filter { $0.section == section }
    }
}
