import EarshotBase

/// Walks a parsed configuration file, filling `settings` and collecting every problem, each
/// placed at the line and column where its key is written.
struct SettingsReader {
    let file: String
    var settings = Settings()
    var problems: [SettingsProblem] = []

    init(file: String) {
        self.file = file
    }

    mutating func read(_ root: TOMLTable) {
        let sections = SettingsKey.sections
        for entry in root.entries {
            let name = entry.key
            if sections.contains(name) {
                guard let table = entry.value.table else {
                    report(entry, [name], subject: name, "expected a table ([\(name)]), got \(Self.raw(entry.value).described)")
                    continue
                }
                read(table, section: name)
            } else if entry.value.table != nil {
                report(entry, [name], subject: "[\(name)]", unknownSection(name))
            } else {
                report(entry, [name], subject: name, unknownTopLevelKey(name))
            }
        }
    }

    private mutating func read(_ table: TOMLTable, section: String) {
        for entry in table.entries {
            let name = entry.key
            let path = [section, name]
            guard let key = SettingsKey.named("\(section).\(name)") else {
                report(entry, path, subject: "[\(section)] \(name)", unknownKey(name, in: section))
                continue
            }
            switch key.kind.check(Self.raw(entry.value)) {
            case .success(let checked): settings.set(key, to: checked)
            case .failure(let mismatch): report(entry, path, subject: key.description, mismatch.message)
            }
        }
    }

    private mutating func report(_ entry: TOMLTable.Entry, _ path: [String], subject: String, _ message: String) {
        problems.append(SettingsProblem(
            file: file, position: SourcePosition(entry.position), keyPath: path.joined(separator: "."), subject: subject, message: message
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

    static func raw(_ value: TOMLValue) -> SettingsRawValue {
        switch value.kind {
        case .string(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .float(let number): .float(number)
        case .boolean(let flag): .boolean(flag)
        case .dateTime, .array, .table: .other(value.phrase)
        }
    }
}

/// "Did you mean …?": the known name closest to a misspelt one, if any is close enough.
enum SpellingSuggestion {
    /// The candidate within a third of the name's length in edits (at least one edit), or one
    /// that starts with the name or it with them; case, `-` and `_` do not count.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let wanted = normalized(name)
        guard !wanted.isEmpty else { return nil }
        let allowed = max(1, wanted.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let known = normalized(candidate)
            var distance = editDistance(wanted, known)
            if wanted.count >= 3, known.starts(with: wanted) || wanted.starts(with: known) { distance = min(distance, allowed) }
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    private static func normalized(_ name: String) -> [Character] {
        Array(name.lowercased().map { $0 == "-" ? "_" : $0 })
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = min(previous[j] + 1, row[j - 1] + 1, substitution)
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
