import TOMLKit

/// Walks a parsed configuration file, filling `settings` and collecting every problem, each
/// placed at the line and column where its key is written.
struct SettingsReader {
    let file: String
    let positions: [[String]: SourcePosition]
    var settings = Settings()
    var problems: [SettingsProblem] = []

    init(file: String, positions: [[String]: SourcePosition]) {
        self.file = file
        self.positions = positions
    }

    mutating func read(_ root: TOMLTable) {
        let sections = SettingsKey.sections
        for name in root.keys {
            guard let value = root[name] else { continue }
            if sections.contains(name) {
                guard let table = value.table else {
                    report([name], subject: name, "expected a table ([\(name)]), got \(Self.raw(value).described)")
                    continue
                }
                read(table, section: name)
            } else if value.table != nil {
                report([name], subject: "[\(name)]", unknownSection(name))
            } else {
                report([name], subject: name, unknownTopLevelKey(name))
            }
        }
    }

    private mutating func read(_ table: TOMLTable, section: String) {
        for name in table.keys {
            guard let value = table[name] else { continue }
            let path = [section, name]
            guard let key = SettingsKey.named("\(section).\(name)") else {
                report(path, subject: "[\(section)] \(name)", unknownKey(name, in: section))
                continue
            }
            switch key.kind.check(Self.raw(value)) {
            case .success(let checked): settings.set(key, to: checked)
            case .failure(let mismatch): report(path, subject: key.description, mismatch.message)
            }
        }
    }

    private mutating func report(_ path: [String], subject: String, _ message: String) {
        // A key with no place of its own (in an inline table written oddly) takes its table's.
        let position = positions[path] ?? positions[Array(path.prefix(1))]
        problems.append(SettingsProblem(
            file: file, position: position, keyPath: path.joined(separator: "."), subject: subject, message: message
        ))
    }

    private func unknownSection(_ name: String) -> String {
        if let match = SpellingSuggestion.closest(to: name, among: SettingsKey.sections) {
            return "unknown section; did you mean [\(match)]?"
        }
        return "unknown section (the sections are \(Self.sectionList))"
    }

    private func unknownKey(_ name: String, in section: String) -> String {
        let here = SettingsKey.keys(in: section).map(\.name)
        if let match = SpellingSuggestion.closest(to: name, among: here) {
            return "unknown key; did you mean \(match)?"
        }
        if let elsewhere = Self.keyElsewhere(named: name) {
            return "unknown key in [\(section)]; did you mean \(elsewhere)?"
        }
        return "unknown key (the keys of [\(section)] are \(here.joined(separator: ", ")))"
    }

    private func unknownTopLevelKey(_ name: String) -> String {
        if let elsewhere = Self.keyElsewhere(named: name) {
            return "unknown key outside any section; did you mean \(elsewhere)?"
        }
        return "unknown key outside any section (settings go in the sections \(Self.sectionList))"
    }

    /// A key of any section whose name is `name` or close to it: `[listening] end_silence_ms`.
    private static func keyElsewhere(named name: String) -> SettingsKey? {
        let names = SettingsKey.all.map(\.name)
        guard let match = SpellingSuggestion.closest(to: name, among: names) else { return nil }
        return SettingsKey.all.first { $0.name == match }
    }

    private static var sectionList: String {
        SettingsKey.sections.map { "[\($0)]" }.joined(separator: ", ")
    }

    static func raw(_ value: any TOMLValueConvertible) -> SettingsRawValue {
        switch value.type {
        case .string: value.string.map(SettingsRawValue.string) ?? .other("a string")
        case .int: value.int.map(SettingsRawValue.integer) ?? .other("an integer")
        case .double: value.double.map(SettingsRawValue.float) ?? .other("a floating-point number")
        case .bool: value.bool.map(SettingsRawValue.boolean) ?? .other("a boolean")
        case .table: .other("a table")
        case .array: .other("an array")
        case .date: .other("a date")
        case .time: .other("a time")
        case .dateTime: .other("a date-time")
        }
    }
}
