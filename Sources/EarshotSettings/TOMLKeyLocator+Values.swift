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
