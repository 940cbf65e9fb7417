import TOMLKit

extension VoiceFile {
    /// Reads typed values from one table of a voice file, collecting problems instead of
    /// stopping at the first, so a file's author sees all of them at once.
    struct TableReader {
        let table: TOMLTable
        /// The table's key in the file (`flite`), nil for the top level.
        let section: String?
        let file: String
        var problems: [VoiceProblem] = []

        init(table: TOMLTable, section: String?, file: String) {
            self.table = table
            self.section = section
            self.file = file
        }

        func path(_ key: String) -> String { section.map { "\($0).\(key)" } ?? key }

        mutating func report(_ key: String, _ kind: VoiceProblem.Kind) {
            problems.append(VoiceProblem(file: file, key: path(key), kind: kind))
        }

        mutating func rejectUnknownKeys(allowed: [String]) {
            for key in table.keys.sorted() where !allowed.contains(key) {
                report(key, .unknownKey(known: allowed))
            }
        }

        func hasSection(_ key: String) -> Bool { table[key] != nil }

        /// The sub-table at `key`, or nil when it is absent or not a table (reported).
        mutating func section(_ key: String) -> TableReader? {
            guard let value = table[key] else { return nil }
            guard let subtable = value.table else {
                report(key, .wrongType(expected: "a table", found: value.type.phrase))
                return nil
            }
            return TableReader(table: subtable, section: path(key), file: file)
        }

        /// A non-empty string that must be present.
        mutating func requiredText(_ key: String) -> String? {
            guard table[key] != nil else {
                report(key, .missingKey)
                return nil
            }
            return optionalText(key)
        }

        mutating func optionalText(_ key: String) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else {
                report(key, .wrongType(expected: "a string", found: value.type.phrase))
                return nil
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                report(key, .empty)
                return nil
            }
            return text
        }

        /// An integer or floating-point value within `range`, if present.
        mutating func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
            guard let value = table[key] else { return nil }
            guard let number = value.double ?? value.int.map(Double.init) else {
                report(key, .wrongType(expected: "a number", found: value.type.phrase))
                return nil
            }
            guard range.contains(number) else {
                let shown = value.int.map(String.init) ?? "\(number)"
                report(key, .outOfRange(allowed: "within \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))", found: shown))
                return nil
            }
            return number
        }

        /// An integer within `range`, if present.
        mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
            guard let value = table[key] else { return nil }
            guard let integer = value.int else {
                report(key, .wrongType(expected: "an integer", found: value.type.phrase))
                return nil
            }
            guard range.contains(integer) else {
                report(key, .outOfRange(allowed: "within \(range.lowerBound)...\(range.upperBound)", found: "\(integer)"))
                return nil
            }
            return integer
        }

        /// 0.5 as "0.5" and 50 as "50".
        static func format(_ number: Double) -> String {
            number == number.rounded() ? String(Int(number)) : String(number)
        }
    }
}
