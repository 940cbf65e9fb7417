// TOML's four strings: basic ("…", with escapes), literal ('…', as written), and the
// multi-line form of each (""" … """, ''' … ''').
extension TOMLParser {
    /// `"…"` on one line, with escapes.
    mutating func basicString() throws(TOMLError) -> String {
        let open = position
        index += 1
        var text = ""
        while true {
            switch current {
            case "\""?:
                index += 1
                return text
            case "\\"?:
                try escape(into: &text)
            case nil, "\n"?, "\r"?:
                throw unclosed("\"", at: open, multiline: "\"\"\"")
            case let scalar?:
                try append(scalar, to: &text, in: "a string", escapable: true)
            }
        }
    }

    /// `'…'` on one line, exactly as written.
    mutating func literalString() throws(TOMLError) -> String {
        let open = position
        index += 1
        var text = ""
        while true {
            switch current {
            case "'"?:
                index += 1
                return text
            case nil, "\n"?, "\r"?:
                throw unclosed("'", at: open, multiline: "'''")
            case let scalar?:
                try append(scalar, to: &text, in: "a literal string", escapable: false)
            }
        }
    }

    /// `"""…"""`: escapes, line ends kept, and a `\` at the end of a line joining it to the next.
    mutating func multilineBasicString() throws(TOMLError) -> String {
        let open = position
        index += 3
        try skipFirstNewline()
        var text = ""
        while true {
            switch current {
            case nil:
                throw failure("the string that starts at \(open) has no closing \"\"\"")
            case "\""?:
                if try closes("\"", into: &text) { return text }
            case "\\"? where isLineEndingBackslash:
                index += 1
                while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    if scalar == "\r" { try newline() } else { index += 1 }
                }
            case "\\"?:
                try escape(into: &text)
            case "\n"?, "\r"?:
                try newline()
                text += "\n"
            case let scalar?:
                try append(scalar, to: &text, in: "a string", escapable: true)
            }
        }
    }

    /// `'''…'''`: exactly as written, line ends included.
    mutating func multilineLiteralString() throws(TOMLError) -> String {
        let open = position
        index += 3
        try skipFirstNewline()
        var text = ""
        while true {
            switch current {
            case nil:
                throw failure("the string that starts at \(open) has no closing '''")
            case "'"?:
                if try closes("'", into: &text) { return text }
            case "\n"?, "\r"?:
                try newline()
                text += "\n"
            case let scalar?:
                try append(scalar, to: &text, in: "a literal string", escapable: false)
            }
        }
    }

    private func unclosed(_ quote: String, at open: TOMLPosition, multiline: String) -> TOMLError {
        failure("the string that starts at \(open) has no closing \(quote) on its line (text over several lines goes between \(multiline) and \(multiline))")
    }

    /// A line end right after a multi-line string's opening quotes is not part of it.
    private mutating func skipFirstNewline() throws(TOMLError) {
        if current == "\n" || current == "\r" { try newline() }
    }

    /// Whether the quotes at `index` close a multi-line string; if so they are read, with the
    /// one or two quotes before the closing three that belong to the text (`""""` ends in `"`).
    private mutating func closes(_ quote: Unicode.Scalar, into text: inout String) throws(TOMLError) -> Bool {
        var count = 0
        while peek(count) == quote { count += 1 }
        guard count >= 3 else {
            text.unicodeScalars.append(contentsOf: repeatElement(quote, count: count))
            index += count
            return false
        }
        guard count <= 5 else { throw failure("\(count) quotes in a row: a multi-line string may hold at most two together") }
        text.unicodeScalars.append(contentsOf: repeatElement(quote, count: count - 3))
        index += count
        return true
    }

    /// A backslash followed by nothing but blanks up to the end of its line.
    private var isLineEndingBackslash: Bool {
        var offset = 1
        while peek(offset) == " " || peek(offset) == "\t" { offset += 1 }
        return peek(offset) == "\n" || (peek(offset) == "\r" && peek(offset + 1) == "\n")
    }

    private mutating func append(_ scalar: Unicode.Scalar, to text: inout String, in what: String, escapable: Bool) throws(TOMLError) {
        guard !Self.isControl(scalar) else {
            let escape = escapable ? ": write it as \\u\(Self.hex(scalar.value, digits: 4))" : ""
            throw failure("\(Self.shown(scalar)) is not allowed in \(what)\(escape)")
        }
        text.unicodeScalars.append(scalar)
        index += 1
    }

    /// The escape at `index` (a backslash), appended as what it stands for.
    private mutating func escape(into text: inout String) throws(TOMLError) {
        let start = index
        index += 1
        let simple: Unicode.Scalar? =
            switch current {
            case "b": "\u{08}"
            case "t": "\t"
            case "n": "\n"
            case "f": "\u{0C}"
            case "r": "\r"
            case "\"": "\""
            case "\\": "\\"
            default: nil
            }
        if let simple {
            text.unicodeScalars.append(simple)
            index += 1
            return
        }
        let digits: Int
        switch current {
        case "u": digits = 4
        case "U": digits = 8
        default:
            let what = current.map { "\\\($0)" } ?? "a backslash at the end"
            throw failure(
                "\(what) is not an escape TOML knows (\\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX); write \\\\ for a backslash, or use a 'literal string'",
                at: start)
        }
        index += 1
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = current.flatMap(Self.hexDigit) else {
                throw failure("expected \(digits) hexadecimal digits after \\\(digits == 4 ? "u" : "U"), found \(found)")
            }
            value = value << 4 | digit
            index += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            let letter = digits == 4 ? "u" : "U"
            throw failure("\\\(letter)\(Self.hex(value, digits: digits)) is not a Unicode scalar value (a surrogate, or above 10FFFF)", at: start)
        }
        text.unicodeScalars.append(scalar)
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }
}
