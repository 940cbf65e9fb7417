/// Reads the values a program expects from one table of a file whose keys are known in advance
/// (a voice, a conversation script), collecting problems instead of stopping at the first, so
/// the file's author sees all of them at once, each with its place.
///
/// Problems are the caller's own type, made from a ``TOMLTableProblem`` by `problem`, so each
/// kind of file words and places them its own way; the caller adds its own to `problems` too.
public struct TOMLTableReader<Problem> {
    public let table: TOMLTable
    /// The keys from the document's root to this table (`["flite"]`); empty for the root.
    public let path: [String]
    /// Where the table is defined: its header, or its `{`; nil for the document's root.
    public let position: TOMLPosition?
    public var problems: [Problem] = []
    private let problem: (TOMLTableProblem) -> Problem

    public init(
        _ table: TOMLTable, path: [String] = [], position: TOMLPosition? = nil, problem: @escaping (TOMLTableProblem) -> Problem
    ) {
        self.table = table
        self.path = path
        self.position = position
        self.problem = problem
    }

    public func has(_ key: String) -> Bool { table[key] != nil }

    /// Where `key` is written, or where the table is when it has no such key (or `key` is nil).
    public func position(of key: String?) -> TOMLPosition? {
        key.flatMap(table.position(of:)) ?? position
    }

    /// Adds the problem `kind` with `key` (nil: the table as a whole), placed at the key.
    public mutating func report(_ key: String?, _ kind: TOMLTableProblem.Kind) {
        problems.append(problem(TOMLTableProblem(path: path, key: key, position: position(of: key), kind: kind)))
    }

    /// Reports every key not in `allowed`, in alphabetical order.
    public mutating func rejectUnknownKeys(allowed: [String]) {
        for key in table.keys.sorted() where !allowed.contains(key) {
            report(key, .unknownKey(known: allowed))
        }
    }

    /// A reader of the table at `key`, with no problems yet: add its problems to these when done.
    /// Nil when there is no such key, or when it is not a table (reported).
    public mutating func section(_ key: String) -> TOMLTableReader? {
        guard let value = table[key] else { return nil }
        guard let subtable = value.table else {
            report(key, .wrongType(expected: "a table", found: value.phrase))
            return nil
        }
        return TOMLTableReader(subtable, path: path + [key], position: value.position, problem: problem)
    }

    /// A string with more than blanks in it; an absent one is reported when `required`.
    public mutating func text(_ key: String, required: Bool = false) -> String? {
        guard let value = table[key] else {
            if required { report(key, .missingKey) }
            return nil
        }
        guard let text = value.string else {
            report(key, .wrongType(expected: "a string", found: value.phrase))
            return nil
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            report(key, .empty)
            return nil
        }
        return text
    }

    /// An integer within `range`, if present. `expected` says what it must be in the file's own
    /// words, for both a value of another type and one out of range; without it the problems say
    /// "an integer" and "within 1...10".
    public mutating func integer(_ key: String, in range: ClosedRange<Int>, expected: String? = nil) -> Int? {
        guard let value = table[key] else { return nil }
        guard let integer = value.integer else {
            report(key, .wrongType(expected: expected ?? "an integer", found: value.phrase))
            return nil
        }
        guard range.contains(integer) else {
            report(key, .outOfRange(allowed: expected ?? "within \(range.lowerBound)...\(range.upperBound)", found: String(integer)))
            return nil
        }
        return integer
    }

    /// An integer or floating-point number within `range`, if present; `expected` as for
    /// ``integer(_:in:expected:)``, else "a number" and "within 0.5...2.5".
    public mutating func number(_ key: String, in range: ClosedRange<Double>, expected: String? = nil) -> Double? {
        guard let value = table[key] else { return nil }
        // One switch, rather than `value.number` then `value.integer`: Swift 6.3's optimizer
        // crashes on the latter (CopyPropagation, "Found ownership error").
        let number: Double, written: String
        switch value.kind {
        case .integer(let integer): (number, written) = (Double(integer), String(integer))
        case .float(let float): (number, written) = (float, String(float))
        default:
            report(key, .wrongType(expected: expected ?? "a number", found: value.phrase))
            return nil
        }
        guard range.contains(number) else {
            let allowed = expected ?? "within \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))"
            report(key, .outOfRange(allowed: allowed, found: written))
            return nil
        }
        return number
    }

    /// 0.5 as "0.5" and 50 as "50".
    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}

/// One thing wrong with a value a ``TOMLTableReader`` was asked for.
public struct TOMLTableProblem: Equatable, Sendable {
    /// The keys from the document's root to the table.
    public var path: [String]
    /// The key at fault; nil for the table as a whole.
    public var key: String?
    /// Where the key is written, else where its table is; nil for the document's root.
    public var position: TOMLPosition?
    public var kind: Kind

    public init(path: [String], key: String?, position: TOMLPosition?, kind: Kind) {
        self.path = path
        self.key = key
        self.position = position
        self.kind = kind
    }

    public enum Kind: Equatable, Sendable {
        case missingKey
        /// A key not among those `known` in its table, probably misspelt.
        case unknownKey(known: [String])
        /// Both named with their article: "an integer", "a string".
        case wrongType(expected: String, found: String)
        case outOfRange(allowed: String, found: String)
        /// A string of nothing but blanks where text is needed.
        case empty
    }

    /// The key's path from the document's root, dotted: `flite.voice`.
    public var keyPath: String { (path + (key.map { [$0] } ?? [])).joined(separator: ".") }

    /// What is wrong, the key called `name`: "`name` must not be empty".
    public func message(naming name: String) -> String {
        let key = "`\(name)`"
        return switch kind {
        case .missingKey: "missing required key \(key)"
        case .unknownKey(let known): "unknown key \(key) (known: \(known.joined(separator: ", ")))"
        case .wrongType(let expected, let found): "\(key) must be \(expected), not \(found)"
        case .outOfRange(let allowed, let found): "\(key) must be \(allowed), not \(found)"
        case .empty: "\(key) must not be empty"
        }
    }
}
