/// A value as it stands in the file, before it is checked against what its key expects.
public enum SettingsRawValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A table, an array, a date or a time: named with an article ("an array").
    case other(String)

    /// What it is and, for a scalar, what it says: `a string ("700")`, `an integer (5)`.
    public var described: String {
        switch self {
        case .string: "a string (\(literal))"
        case .integer: "an integer (\(literal))"
        case .float: "a floating-point number (\(literal))"
        case .boolean: "a boolean (\(literal))"
        case .other(let kind): kind
        }
    }

    /// The value as written in TOML; a non-scalar is named instead.
    public var literal: String {
        switch self {
        case .string(let text): SettingsValue.quoted(text)
        case .integer(let integer): String(integer)
        case .float(let number): number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .other(let kind): kind
        }
    }
}

extension SettingsRawValue {
    /// An integer or floating-point value as a number.
    var number: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .float(let number): number
        default: nil
        }
    }
}
