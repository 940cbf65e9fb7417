/// One setting's value, as the file or a command-line flag gives it.
public enum SettingsValue: Equatable, Sendable, CustomStringConvertible {
    case text(String)
    case integer(Int)
    case number(Double)
    case flag(Bool)

    /// The value as TOML writes it: `"en-US"`, `600`, `0.5`, `true`.
    public var description: String {
        switch self {
        case .text(let text): Self.quoted(text)
        case .integer(let integer): String(integer)
        case .number(let number): Self.format(number)
        case .flag(let flag): flag ? "true" : "false"
        }
    }

    /// 15 as "15" and 0.5 as "0.5": what a person would type.
    static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
