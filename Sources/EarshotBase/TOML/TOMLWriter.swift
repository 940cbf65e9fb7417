/// TOML text for tables, keys and values, which the parser reads back as equal values.
public enum TOMLWriter {
    /// A whole document: each table's plain keys, then its tables under `[headers]` and its
    /// arrays of tables under `[[headers]]`, in the order written. Inline tables come out as
    /// tables with headers; comments and the original layout are not kept.
    public static func document(_ table: TOMLTable) -> String {
        var lines: [String] = []
        write(table, at: [], into: &lines)
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// `a.b`, quoting the parts that are not bare keys: `site."google.com"`.
    public static func key(_ path: [String]) -> String {
        path.map { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy(TOMLParser.isBareKeyScalar) ? part : quoted(part)
        }.joined(separator: ".")
    }

    /// A basic string: quotes, backslashes and control characters escaped, the rest as is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u" + TOMLParser.hex(scalar.value, digits: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `1.5`, `1e+20`, `inf`, `-inf`, `nan`.
    public static func float(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        return String(number)
    }

    /// A value as it is written after `=`; tables inline.
    public static func inline(_ value: TOMLValue) -> String {
        switch value.kind {
        case .string(let text): quoted(text)
        case .integer(let integer): String(integer)
        case .float(let number): float(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .dateTime(let dateTime): dateTime.description
        case .array(let elements): "[" + elements.map(inline).joined(separator: ", ") + "]"
        case .table(let table) where table.isEmpty: "{}"
        case .table(let table): "{ " + table.entries.map { "\(key([$0.key])) = \(inline($0.value))" }.joined(separator: ", ") + " }"
        }
    }

    private static func write(_ table: TOMLTable, at path: [String], into lines: inout [String]) {
        for entry in table.entries where !isSection(entry.value) {
            lines.append("\(key([entry.key])) = \(inline(entry.value))")
        }
        for entry in table.entries where isSection(entry.value) {
            let name = key(path + [entry.key])
            if let subtable = entry.value.table {
                if !lines.isEmpty { lines.append("") }
                lines.append("[\(name)]")
                write(subtable, at: path + [entry.key], into: &lines)
            } else {
                for element in entry.value.array ?? [] {
                    if !lines.isEmpty { lines.append("") }
                    lines.append("[[\(name)]]")
                    write(element.table ?? TOMLTable(), at: path + [entry.key], into: &lines)
                }
            }
        }
    }

    /// A table, or an array of tables only, which are written under headers.
    private static func isSection(_ value: TOMLValue) -> Bool {
        if value.table != nil { return true }
        guard let elements = value.array, !elements.isEmpty else { return false }
        return elements.allSatisfy { $0.table != nil }
    }
}
