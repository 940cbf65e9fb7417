// The values after `=`: which kind a value is from how it starts, arrays, inline tables and
// the words true, false, inf and nan. Strings, numbers and dates have files of their own.
extension TOMLParser {
    static let valueKinds = "a quoted string, a number, true or false, a date, an array [ ] or an inline table { }"

    /// The value at `index`, which belongs to the key `path` (for messages about inline tables).
    mutating func value(named path: [String]) throws(TOMLError) -> TOMLValue {
        let place = position
        guard let scalar = current else { throw failure("expected a value (\(Self.valueKinds)), found \(found)") }
        let kind: TOMLValue.Kind
        switch scalar {
        case "\"":
            kind = .string(peek(1) == "\"" && peek(2) == "\"" ? try multilineBasicString() : try basicString())
        case "'":
            kind = .string(peek(1) == "'" && peek(2) == "'" ? try multilineLiteralString() : try literalString())
        case "[":
            kind = try array(named: path)
        case "{":
            return try inlineTable(named: path)
        case "+", "-", "0"..."9":
            kind = try numberOrDate()
        case "A"..."Z", "a"..."z", "_":
            kind = try word()
        default:
            throw failure("expected a value (\(Self.valueKinds)), found \(found)")
        }
        return TOMLValue(kind, at: place)
    }

    /// `true`, `false`, `inf` or `nan`; any other word is text that lacks its quotes.
    private mutating func word() throws(TOMLError) -> TOMLValue.Kind {
        let start = index
        var word = ""
        while let scalar = current, Self.isBareKeyScalar(scalar) {
            word.unicodeScalars.append(scalar)
            index += 1
        }
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf": return .float(.infinity)
        case "nan": return .float(.nan)
        default:
            let hint = word.lowercased() == "true" || word.lowercased() == "false" ? "true and false are written in lower case" :
                "text is written in quotes: \"\(word)\""
            throw failure("expected a value (\(Self.valueKinds)), found \(word); \(hint)", at: start)
        }
    }

    private mutating func array(named path: [String]) throws(TOMLError) -> TOMLValue.Kind {
        let open = position
        try enterNesting()
        defer { depth -= 1 }
        index += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlanksLinesAndComments()
            if current == "]" {
                index += 1
                return .array(elements)
            }
            guard current != nil else { throw failure("the array that starts at \(open) has no closing \"]\"") }
            elements.append(try value(named: path))
            try skipBlanksLinesAndComments()
            switch current {
            case ",":
                index += 1
            case "]":
                index += 1
                return .array(elements)
            case nil:
                throw failure("the array that starts at \(open) has no closing \"]\"")
            default:
                throw failure("expected \",\" or \"]\" after an element of the array, found \(found)")
            }
        }
    }

    /// `{ key = value, … }` on one line: a table complete as written.
    private mutating func inlineTable(named path: [String]) throws(TOMLError) -> TOMLValue {
        let open = position
        try enterNesting()
        defer { depth -= 1 }
        index += 1
        let node = try builder.beginInline(path, at: open)
        skipBlanks()
        if current == "}" {
            index += 1
            return builder.finishInline(node)
        }
        while true {
            skipBlanks()
            try checkInlineTableGoesOn(open)
            try keyValue(in: node)
            skipBlanks()
            switch current {
            case ",":
                index += 1
                skipBlanks()
                if current == "}" { throw failure("an inline table cannot end with a comma (TOML 1.0)") }
            case "}":
                index += 1
                return builder.finishInline(node)
            default:
                try checkInlineTableGoesOn(open)
                throw failure("expected \",\" or \"}\" after a value in the inline table, found \(found)")
            }
        }
    }

    /// An inline table may not span lines; values inside it (arrays, strings) may.
    private func checkInlineTableGoesOn(_ open: TOMLPosition) throws(TOMLError) {
        switch current {
        case nil:
            throw failure("the inline table that starts at \(open) has no closing \"}\"")
        case "\n", "\r", "#":
            throw failure("an inline table must close on the line it starts (\(open)); a longer table goes under a [header]")
        default:
            return
        }
    }

    private mutating func enterNesting() throws(TOMLError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("arrays and inline tables are nested deeper than \(Self.maximumDepth) levels") }
    }
}
