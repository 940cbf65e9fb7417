/// The commented example configuration file: every key, with its default (or, for a key with
/// none, what leaving it out means and a sample value). `config.example.toml` at the root of
/// the repository is this text; `earshot config example` prints it.
public enum SettingsExample {
    static let width = 96

    public static var text: String {
        var lines = [
            "# Earshot's configuration file: $XDG_CONFIG_HOME/earshot/config.toml",
            "# (~/.config/earshot/config.toml when XDG_CONFIG_HOME is not set).",
            "#",
            "# Every key is optional and shown commented out with its default: uncomment a line to change it.",
            "# \"Option\" is the earshotd option that overrides the key. `earshot config check` validates a file.",
            "# Sending earshotd SIGHUP makes it read the file again; \"Reload\" says when a change takes effect.",
            "# A file with a problem is refused, naming its line and key (a running earshotd keeps its settings).",
        ]
        for section in SettingsKey.sections {
            lines += ["", "[\(section)]"]
            for key in SettingsKey.keys(in: section) {
                lines.append("")
                lines += wrapped(key.summary)
                let reload = key.reload == .live ? "at once" : "at the next start"
                if let value = key.defaultValue {
                    lines.append("# Option: \(key.flag). Reload: \(reload).")
                    lines.append("# \(key.name) = \(value)")
                } else {
                    lines += wrapped("Left out: \(key.unsetMeaning ?? "the default").")
                    lines.append("# Option: \(key.flag). Reload: \(reload).")
                    lines.append("# \(key.name) = \(key.example ?? .text(""))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as comment lines of at most `width` characters, broken between words.
    static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line != "#" {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }
}

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
