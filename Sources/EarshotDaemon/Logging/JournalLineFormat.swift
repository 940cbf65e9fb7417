public import Logging

/// Renders one log record as one line (no newline inside: a message's own line breaks become
/// `\n`), so every record is one journal entry or one line of a file.
public struct JournalLineFormat: Sendable {
    public var style: JournalLineStyle

    public init(style: JournalLineStyle) {
        self.style = style
    }

    /// `timestamp` is shown in the plain style only (e.g. `2025-11-21 14:02:07.123`).
    public func line(
        level: Logger.Level, subsystem: String, message: String, metadata: Logger.Metadata, timestamp: String
    ) -> String {
        var text = ""
        switch style {
        case .journal:
            text = "<\(Self.priority(level))>\(subsystem): "
        case .plain(let colour):
            let word = colour ? Self.coloured(level) : level.rawValue
            text = "\(timestamp) \(word) \(subsystem): "
        }
        text += Self.oneLine(message)
        for key in metadata.keys.sorted() {
            text += " \(key)=\(Self.quotedIfNeeded(Self.oneLine(metadata[key].map { "\($0)" } ?? "")))"
        }
        return text
    }

    /// The syslog priority journald records for `level` (sd-daemon(3): `SD_ERR` is `<3>`).
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    static func coloured(_ level: Logger.Level) -> String {
        let code = switch level {
        case .trace, .debug: "2"
        case .info: "32"
        case .notice: "36"
        case .warning: "33"
        case .error: "31"
        case .critical: "1;31"
        }
        return "\u{1B}[\(code)m\(level.rawValue)\u{1B}[0m"
    }

    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        // "\r\n" is one Character, and "\n" and "\r" never join others into one.
        return text.replacing("\r\n", with: "\\n").replacing("\n", with: "\\n").replacing("\r", with: "\\n")
    }

    /// A value with blanks, quotes or `=` in quotes, so `key=value` pairs stay readable.
    static func quotedIfNeeded(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\t" }) else { return value }
        // Scalar by scalar: a quote with an accent on it is still a quote to escape.
        var quoted = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }
}
