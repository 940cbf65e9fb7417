import EarshotVoices
import TOMLKit

/// Reads typed values from one table of a conversation script (the top of the file or one
/// `[[reply]]`), collecting problems instead of stopping at the first, so the script's author
/// sees all of them at once, each with its line.
struct ScriptTableReader {
    let table: TOMLTable
    /// The `[[reply]]` this table is, counting from 1; nil for the top of the file.
    let reply: Int?
    let file: String
    let lines: ScriptLines
    var problems: [ScriptProblem] = []

    mutating func report(_ key: String?, _ message: String) {
        problems.append(ScriptProblem(file: file, line: lines.line(of: key, inReply: reply), reply: reply, key: key, message: message))
    }

    func has(_ key: String) -> Bool { table[key] != nil }

    mutating func rejectUnknownKeys(allowed: [String]) {
        for key in table.keys.sorted() where !allowed.contains(key) {
            report(key, "unknown key `\(key)` (known: \(allowed.joined(separator: ", ")))")
        }
    }

    /// A non-empty string; a missing one is reported when `required`.
    mutating func text(_ key: String, required: Bool) -> String? {
        guard let value = table[key] else {
            if required { report(key, "missing required key `\(key)`") }
            return nil
        }
        guard let text = value.string else {
            report(key, "`\(key)` must be a string, not \(value.type.phrase)")
            return nil
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            report(key, "`\(key)` must not be empty")
            return nil
        }
        return text
    }

    /// An integer within `range`, if present; `expected` says what it must be, in words.
    mutating func integer(_ key: String, in range: ClosedRange<Int>, expected: String) -> Int? {
        guard let value = table[key] else { return nil }
        guard let integer = value.int else {
            report(key, "`\(key)` must be \(expected), not \(value.type.phrase)")
            return nil
        }
        guard range.contains(integer) else {
            report(key, "`\(key)` must be \(expected), not \(integer)")
            return nil
        }
        return integer
    }

    /// An integer or floating-point number within `range`, if present.
    mutating func number(_ key: String, in range: ClosedRange<Double>, expected: String) -> Double? {
        guard let value = table[key] else { return nil }
        guard let number = value.double ?? value.int.map(Double.init) else {
            report(key, "`\(key)` must be \(expected), not \(value.type.phrase)")
            return nil
        }
        guard range.contains(number) else {
            report(key, "`\(key)` must be \(expected), not \(value.int.map(String.init) ?? String(number))")
            return nil
        }
        return number
    }
}
