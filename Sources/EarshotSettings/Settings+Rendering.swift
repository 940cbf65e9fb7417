extension Settings {
    /// The settings as a configuration file that says every one of them: what `earshot config
    /// check` prints. An optional key left unset is a comment saying what that means.
    public var rendered: String {
        var lines: [String] = []
        for section in SettingsKey.sections {
            if !lines.isEmpty { lines.append("") }
            lines.append("[\(section)]")
            for key in SettingsKey.keys(in: section) {
                if let value = value(of: key) {
                    lines.append("\(key.name) = \(value)")
                } else {
                    lines.append("# \(key.name): not set: \(key.unsetMeaning ?? "the default")")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
