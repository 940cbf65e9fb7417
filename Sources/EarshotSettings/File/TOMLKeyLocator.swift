/// Finds where each key of a TOML document is written, which TOMLKit does not say: the
/// settings problems name a line and column, like the parser's own errors do.
///
/// It runs only on text the TOML parser accepted, so it need not diagnose anything: it walks
/// table headers (`[a.b]`, `[[a]]`), key-value lines with bare, quoted and dotted keys, and
/// values, stepping over strings of all four kinds, arrays and inline tables (whose keys it
/// records too), wherever they span lines. A key defined twice keeps its first place.
struct TOMLKeyLocator {
    private let scalars: [Unicode.Scalar]
    private(set) var index = 0
    private var line = 1
    private var lineStart = 0
    private(set) var positions: [[String]: SourcePosition] = [:]

    /// The position of every key path (`["listening", "end_silence_ms"]`) and table header in `text`.
    static func locate(in text: String) -> [[String]: SourcePosition] {
        var locator = TOMLKeyLocator(text)
        locator.document()
        return locator.positions
    }

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private var position: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    mutating func advance() {
        guard let scalar = current else { return }
        index += 1
        if scalar == "\n" {
            line += 1
            lineStart = index
        }
    }

    private mutating func record(_ path: [String], at place: SourcePosition) {
        if positions[path] == nil { positions[path] = place }
    }

    private mutating func document() {
        var table: [String] = []
        while current != nil {
            skipBlanks()
            switch current {
            case nil: return
            case "\n", "\r": advance()
            case "#": skipComment()
            case "[":
                let place = position
                advance()
                if current == "[" { advance() }  // [[array of tables]]
                table = keyPath()
                record(table, at: place)
                skipToLineEnd()
            default:
                keyValue(in: table)
                skipToLineEnd()
            }
        }
    }

    /// `key = value`, recording the key (each dotted prefix too) below `table`.
    mutating func keyValue(in table: [String]) {
        let place = position
        let key = keyPath()
        guard !key.isEmpty else {
            advance()
            return
        }
        for length in 1...key.count { record(table + key.prefix(length), at: place) }
        skipBlanks()
        guard current == "=" else { return }
        advance()
        skipBlanks()
        value(at: table + key)
    }

    /// A dotted key: simple keys separated by `.`, blanks allowed around the dots.
    private mutating func keyPath() -> [String] {
        var parts: [String] = []
        while true {
            skipBlanks()
            guard let part = simpleKey() else { break }
            parts.append(part)
            skipBlanks()
            guard current == "." else { break }
            advance()
        }
        return parts
    }

    private mutating func simpleKey() -> String? {
        switch current {
        case "\"": return basicString()
        case "'": return literalString()
        default:
            var key = ""
            while let scalar = current, Self.isBareKeyScalar(scalar) {
                key.unicodeScalars.append(scalar)
                advance()
            }
            return key.isEmpty ? nil : key
        }
    }

    static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }
}

// MARK: - Values, and what lies between keys

extension TOMLKeyLocator {
    /// Steps over one value; an inline table's keys are recorded below `path`.
    mutating func value(at path: [String]) {
        switch current {
        case "\"":
            if peek(1) == "\"", peek(2) == "\"" { multilineString(quote: "\"") } else { _ = basicString() }
        case "'":
            if peek(1) == "'", peek(2) == "'" { multilineString(quote: "'") } else { _ = literalString() }
        case "[": array(at: path)
        case "{": inlineTable(at: path)
        default:
            while let scalar = current, !Self.endsScalarValue(scalar) { advance() }
        }
    }

    static func endsScalarValue(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ",", "]", "}", "#", "\n", "\r": true
        default: false
        }
    }

    private mutating func array(at path: [String]) {
        advance()
        while let scalar = current {
            switch scalar {
            case "]":
                advance()
                return
            case " ", "\t", "\n", "\r", ",": advance()
            case "#": skipComment()
            default:
                let before = index
                value(at: path)
                if index == before { advance() }
            }
        }
    }

    private mutating func inlineTable(at path: [String]) {
        advance()
        while let scalar = current {
            switch scalar {
            case "}":
                advance()
                return
            case " ", "\t", "\n", "\r", ",": advance()
            default:
                let before = index
                keyValue(in: path)
                if index == before { advance() }
            }
        }
    }

    /// A `"…"` string with escapes; returns its text (escapes kept as written: keys rarely have any).
    mutating func basicString() -> String {
        advance()
        var text = ""
        while let scalar = current, scalar != "\"", scalar != "\n" {
            if scalar == "\\" {
                advance()
                if let escaped = current { text.unicodeScalars.append(escaped) }
                advance()
                continue
            }
            text.unicodeScalars.append(scalar)
            advance()
        }
        advance()
        return text
    }

    /// A `'…'` string: no escapes.
    mutating func literalString() -> String {
        advance()
        var text = ""
        while let scalar = current, scalar != "'", scalar != "\n" {
            text.unicodeScalars.append(scalar)
            advance()
        }
        advance()
        return text
    }

    /// `"""…"""` or `'''…'''`, across lines; up to two more quotes may close it (`""""`).
    private mutating func multilineString(quote: Unicode.Scalar) {
        advance(); advance(); advance()
        while let scalar = current {
            if quote == "\"", scalar == "\\" {
                advance()
                advance()
                continue
            }
            if scalar == quote, peek(1) == quote, peek(2) == quote {
                advance(); advance(); advance()
                var extra = 0
                while current == quote, extra < 2 {
                    advance()
                    extra += 1
                }
                return
            }
            advance()
        }
    }

    mutating func skipBlanks() {
        while current == " " || current == "\t" { advance() }
    }

    mutating func skipComment() {
        while let scalar = current, scalar != "\n" { advance() }
    }

    /// Whatever is left of the line (blanks, a comment), and its newline.
    mutating func skipToLineEnd() {
        while let scalar = current, scalar != "\n" {
            if scalar == "#" {
                skipComment()
                break
            }
            advance()
        }
        advance()
    }
}
