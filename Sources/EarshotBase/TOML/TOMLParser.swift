/// A TOML 1.0 parser that keeps where every key and value is written, so a program that
/// refuses a setting can say on which line and column it is, not only a parser that refuses
/// the text.
///
/// Written here rather than taken from a package: the TOML packages for Swift bring Foundation
/// (for dates) into `earshotd`, which otherwise does without it, and place only syntax errors.
/// Dates and times are read into ``TOMLDateTime``; every rule of TOML 1.0 is kept, duplicate
/// keys and redefined tables included, and the first problem stops parsing (``TOMLError``).
public struct TOMLParser {
    /// Deeper nesting (of arrays and inline tables, or of tables) is refused so a line of `[`
    /// cannot exhaust the stack.
    public static let maximumDepth = 128

    let scalars: [Unicode.Scalar]
    /// Where each line starts, as an index into `scalars`.
    private let lineStarts: [Int]
    var index = 0
    var depth = 0
    var builder = TOMLTableBuilder()

    /// The document's root table.
    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var parser = TOMLParser(text)
        try parser.document()
        return parser.builder.table(TOMLTableBuilder.root)
    }

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
        lineStarts = starts
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    var position: TOMLPosition { position(of: index) }

    func position(of offset: Int) -> TOMLPosition {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return TOMLPosition(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    func failure(_ message: String, at offset: Int? = nil) -> TOMLError {
        TOMLError(message, at: position(of: offset ?? index))
    }

    /// What stands at `index`, for a message: `"="`, `the end of the line`.
    var found: String {
        guard let scalar = current else { return "the end of the file" }
        return Self.shown(scalar)
    }

    static func shown(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n", "\r": "the end of the line"
        case "\"": "'\"'"
        case _ where isControl(scalar): "the control character U+\(hex(scalar.value, digits: 4))"
        default: "\"\(scalar)\""
        }
    }

    /// Characters TOML allows only escaped in strings, and not in comments: all C0 controls but
    /// tab, and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

// MARK: - Lines: headers, key-value pairs, comments

extension TOMLParser {
    private mutating func document() throws(TOMLError) {
        if current == "\u{FEFF}" { index += 1 }
        var table = TOMLTableBuilder.root
        while true {
            skipBlanks()
            guard let scalar = current else { return }
            switch scalar {
            case "\n", "\r": try newline()
            case "#": try comment()
            case "[":
                table = try header()
                try endOfLine(after: "the table header")
            default:
                let key = try keyValue(in: table)
                try endOfLine(after: "the value of `\(TOMLWriter.key(key))`")
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: the table that the lines below it fill.
    private mutating func header() throws(TOMLError) -> Int {
        let place = position
        index += 1
        let isArray = current == "["
        if isArray { index += 1 }
        skipBlanks()
        let path = try key()
        skipBlanks()
        let closing = isArray ? "]]" : "]"
        guard current == "]", !isArray || peek(1) == "]" else {
            throw failure("expected \"\(closing)\" to close the table header \(isArray ? "[[" : "[")\(TOMLWriter.key(path)), found \(found)")
        }
        index += closing.count
        return isArray ? try builder.appendTable(to: path, at: place) : try builder.defineTable(path, at: place)
    }

    /// `key = value` in `table`; returns the key.
    @discardableResult
    mutating func keyValue(in table: Int) throws(TOMLError) -> [String] {
        let place = position
        let key = try key()
        skipBlanks()
        guard current == "=" else {
            throw failure("expected \"=\" after the key `\(TOMLWriter.key(key))`, found \(found)")
        }
        index += 1
        skipBlanks()
        let value = try value(named: builder.path(of: table) + key)
        try builder.set(key, to: value, in: table, at: place)
        return key
    }

    /// A dotted key: simple keys joined by `.`, blanks allowed around the dots.
    private mutating func key() throws(TOMLError) -> [String] {
        var parts = [try simpleKey()]
        while true {
            skipBlanks()
            guard current == "." else { return parts }
            index += 1
            skipBlanks()
            parts.append(try simpleKey())
            if parts.count > Self.maximumDepth { throw failure("a key has more than \(Self.maximumDepth) parts") }
        }
    }

    private mutating func simpleKey() throws(TOMLError) -> String {
        switch current {
        case "\"":
            if peek(1) == "\"", peek(2) == "\"" { throw failure("a key cannot be a multi-line string") }
            return try basicString()
        case "'":
            if peek(1) == "'", peek(2) == "'" { throw failure("a key cannot be a multi-line string") }
            return try literalString()
        case let scalar? where Self.isBareKeyScalar(scalar):
            var key = ""
            while let scalar = current, Self.isBareKeyScalar(scalar) {
                key.unicodeScalars.append(scalar)
                index += 1
            }
            return key
        default:
            throw failure("expected a key (letters, digits, \"_\" and \"-\", or a quoted string), found \(found)")
        }
    }

    static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }

    mutating func skipBlanks() {
        while current == " " || current == "\t" { index += 1 }
    }

    /// A line feed, or a carriage return and a line feed.
    mutating func newline() throws(TOMLError) {
        if current == "\r" {
            guard peek(1) == "\n" else { throw failure("a carriage return must be followed by a line feed") }
            index += 1
        }
        index += 1
    }

    /// `# …` up to the end of its line.
    mutating func comment() throws(TOMLError) {
        index += 1
        while let scalar = current, scalar != "\n" {
            if scalar == "\r", peek(1) == "\n" { return }
            if Self.isControl(scalar) { throw failure("\(Self.shown(scalar)) is not allowed in a comment") }
            index += 1
        }
    }

    /// Blanks, a comment and the line's end: all that may follow a header or a value.
    private mutating func endOfLine(after what: String) throws(TOMLError) {
        skipBlanks()
        if current == "#" { try comment() }
        guard current != nil else { return }
        guard current == "\n" || current == "\r" else {
            throw failure("expected the end of the line after \(what), found \(found) (each key = value goes on its own line)")
        }
        try newline()
    }

    /// Within an array: blanks, line ends and comments.
    mutating func skipBlanksLinesAndComments() throws(TOMLError) {
        while let scalar = current {
            switch scalar {
            case " ", "\t": index += 1
            case "\n", "\r": try newline()
            case "#": try comment()
            default: return
            }
        }
    }
}
