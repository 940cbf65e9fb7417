extension SettingsValue {
    /// The value as if written in the file, to be checked like the file's own.
    public var raw: SettingsRawValue {
        switch self {
        case .text(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .number(let number): .float(number)
        case .flag(let flag): .boolean(flag)
        }
    }
}
