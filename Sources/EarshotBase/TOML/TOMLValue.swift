/// One value of a TOML document and where it is written.
///
/// Two values are equal when they say the same, wherever they are written: positions do not
/// take part, so a document can be compared with the same document written out again.
public struct TOMLValue: Equatable, Sendable {
    public var kind: Kind
    /// Where the value starts: its first character, or for a table the `[` of its header.
    public var position: TOMLPosition

    public init(_ kind: Kind, at position: TOMLPosition) {
        self.kind = kind
        self.position = position
    }

    public enum Kind: Equatable, Sendable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case dateTime(TOMLDateTime)
        /// An array written with `[ ]`, or the tables of an array of tables (`[[name]]`).
        case array([TOMLValue])
        /// A table under a `[header]`, made by dotted keys, or written inline with `{ }`.
        case table(TOMLTable)
    }

    public static func == (lhs: TOMLValue, rhs: TOMLValue) -> Bool {
        lhs.kind == rhs.kind
    }

    public var string: String? {
        if case .string(let value) = kind { value } else { nil }
    }

    public var integer: Int? {
        if case .integer(let value) = kind { value } else { nil }
    }

    /// A floating-point value; an integer is not one (see ``number``).
    public var float: Double? {
        if case .float(let value) = kind { value } else { nil }
    }

    /// An integer or floating-point value as a number.
    public var number: Double? {
        float ?? integer.map(Double.init)
    }

    public var boolean: Bool? {
        if case .boolean(let value) = kind { value } else { nil }
    }

    public var dateTime: TOMLDateTime? {
        if case .dateTime(let value) = kind { value } else { nil }
    }

    public var array: [TOMLValue]? {
        if case .array(let value) = kind { value } else { nil }
    }

    public var table: TOMLTable? {
        if case .table(let value) = kind { value } else { nil }
    }

    /// The value's type as a message names it, with its article: "a string", "an integer".
    public var phrase: String {
        switch kind {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a floating-point number"
        case .boolean: "a boolean"
        case .dateTime(let value): value.phrase
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// A place in a TOML text, both counted from 1 (columns in Unicode scalars).
public struct TOMLPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: TOMLPosition, rhs: TOMLPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `3:14`, as a compiler's diagnostic writes it after the file name.
    public var description: String { "\(line):\(column)" }
}
