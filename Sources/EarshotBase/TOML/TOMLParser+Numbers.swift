// Integers (decimal, hexadecimal, octal, binary), floats and dates and times: each is read as
// the run of characters that could belong to one, then checked against TOML's grammar.
extension TOMLParser {
    mutating func numberOrDate() throws(TOMLError) -> TOMLValue.Kind {
        let start = index
        var token = scan()
        if Self.isDate(token[...]), token.count == 10, current == " ", peek(1).map(Self.isDigit) == true,
            peek(2).map(Self.isDigit) == true, peek(3) == ":"
        {
            index += 1
            token += ["T"] + scan()
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: token)
        if Self.isDate(token[...]) || (token.count > 2 && token[2] == ":" && token[..<2].allSatisfy(Self.isDigit)) {
            return .dateTime(try dateTime(token, text: text, at: start))
        }
        return try number(text, at: start)
    }

    /// The characters from `index` on that can be part of a number or a date.
    private mutating func scan() -> [Unicode.Scalar] {
        let start = index
        while let scalar = current, Self.isBareKeyScalar(scalar) || scalar == "+" || scalar == "." || scalar == ":" { index += 1 }
        return Array(scalars[start..<index])
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// Starts like `1979-`.
    private static func isDate(_ token: ArraySlice<Unicode.Scalar>) -> Bool {
        token.count > 4 && token.prefix(4).allSatisfy(isDigit) && token[token.startIndex + 4] == "-"
    }

    // MARK: Numbers

    private func number(_ text: String, at start: Int) throws(TOMLError) -> TOMLValue.Kind {
        var body = Substring(text)
        var sign = ""
        if let first = body.first, first == "+" || first == "-" {
            sign = String(first)
            body = body.dropFirst()
        }
        switch body {
        case "inf": return .float(sign == "-" ? -.infinity : .infinity)
        case "nan": return .float(.nan)
        default: break
        }
        if body.count > 1, body.first == "0", let radix = Self.radixes[body[body.index(after: body.startIndex)]] {
            guard sign.isEmpty else {
                throw failure("\(text): a hexadecimal, octal or binary integer cannot have a sign", at: start)
            }
            let digits = body.dropFirst(2)
            guard Self.isDigitRun(digits, radix: radix.value) else {
                throw failure("\(text) is not a valid \(radix.name) integer (digits 0 to \(radix.highest), an \"_\" only between two)", at: start)
            }
            guard let value = Int(digits.filter { $0 != "_" }, radix: radix.value) else {
                throw failure("\(text) does not fit in a 64-bit integer", at: start)
            }
            return .integer(value)
        }
        return try decimal(body, sign: sign, text: text, at: start)
    }

    private static let radixes: [Character: (value: Int, name: String, highest: String)] = [
        "x": (16, "hexadecimal", "F"), "o": (8, "octal", "7"), "b": (2, "binary", "1"),
    ]

    /// `[+-] integer part [. fraction] [e [+-] exponent]`.
    private func decimal(_ body: Substring, sign: String, text: String, at start: Int) throws(TOMLError) -> TOMLValue.Kind {
        let exponentMark = body.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = body[..<(exponentMark ?? body.endIndex)]
        let point = mantissa.firstIndex(of: ".")
        let integerPart = mantissa[..<(point ?? mantissa.endIndex)]
        guard Self.isDigitRun(integerPart, radix: 10) else {
            throw failure("\(text) is not a number (digits, with an \"_\" only between two)", at: start)
        }
        guard integerPart.count == 1 || integerPart.first != "0" else {
            throw failure("\(text): a decimal number cannot start with 0 (write 0o… for an octal one)", at: start)
        }
        if let point, !Self.isDigitRun(mantissa[mantissa.index(after: point)...], radix: 10) {
            throw failure("\(text): expected digits after the decimal point", at: start)
        }
        if let exponentMark {
            var exponent = body[body.index(after: exponentMark)...]
            if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
            guard Self.isDigitRun(exponent, radix: 10) else { throw failure("\(text): expected digits in the exponent", at: start) }
        }
        let cleaned = sign + body.filter { $0 != "_" }
        guard point != nil || exponentMark != nil else {
            guard let value = Int(cleaned) else { throw failure("\(text) does not fit in a 64-bit integer", at: start) }
            return .integer(value)
        }
        guard let value = Double(cleaned), value.isFinite else {
            throw failure("\(text) is too large for a 64-bit floating-point number", at: start)
        }
        return .float(value)
    }

    /// Digits of `radix`, at least one, with single `_` between two of them.
    private static func isDigitRun(_ text: Substring, radix: Int) -> Bool {
        guard let first = text.first, let last = text.last, first != "_", last != "_", !text.contains("__") else { return false }
        return text.allSatisfy { $0 == "_" || $0.hexDigitValue.map { $0 < radix } == true }
    }

    // MARK: Dates and times

    /// `1979-05-27`, `07:32:00.5`, `1979-05-27T07:32:00`, `1979-05-27T07:32:00-07:00`.
    private func dateTime(_ token: [Unicode.Scalar], text: String, at start: Int) throws(TOMLError) -> TOMLDateTime {
        var rest = token[...]
        func invalid(_ why: String) -> TOMLError {
            failure("\(text) is not a valid date or time: \(why)", at: start)
        }
        func field(_ count: Int, _ name: String, _ range: ClosedRange<Int>) throws(TOMLError) -> Int {
            let digits = rest.prefix(count)
            guard digits.count == count, digits.allSatisfy(Self.isDigit) else { throw invalid("expected \(count) digits for the \(name)") }
            rest = rest.dropFirst(count)
            let value = digits.reduce(0) { $0 * 10 + Int($1.value - 0x30) }
            guard range.contains(value) else { throw invalid("the \(name) must be \(range.lowerBound) to \(range.upperBound)") }
            return value
        }
        func separator(_ scalar: Unicode.Scalar, _ what: String) throws(TOMLError) {
            guard rest.first == scalar else { throw invalid("expected \"\(scalar)\" \(what)") }
            rest = rest.dropFirst()
        }
        var date: TOMLDateTime.Date?
        if Self.isDate(token[...]) {
            let year = try field(4, "year", 0...9999)
            try separator("-", "after the year")
            let month = try field(2, "month", 1...12)
            try separator("-", "after the month")
            let day = try field(2, "day", 1...31)
            guard day <= TOMLDateTime.days(inMonth: month, of: year) else { throw invalid("month \(month) of \(year) has no day \(day)") }
            date = TOMLDateTime.Date(year: year, month: month, day: day)
            guard let delimiter = rest.first else { return TOMLDateTime(date: date) }
            guard delimiter == "T" || delimiter == "t" else { throw invalid("expected \"T\" or a space between the date and the time") }
            rest = rest.dropFirst()
        }
        let hour = try field(2, "hour", 0...23)
        try separator(":", "after the hour")
        let minute = try field(2, "minute", 0...59)
        try separator(":", "after the minute (a time needs its seconds: 07:32:00)")
        let second = try field(2, "second", 0...60)
        var nanosecond = 0
        if rest.first == "." {
            rest = rest.dropFirst()
            let digits = rest.prefix { Self.isDigit($0) }
            guard !digits.isEmpty else { throw invalid("expected digits after the decimal point of the seconds") }
            rest = rest.dropFirst(digits.count)
            for (place, digit) in digits.prefix(9).enumerated() {
                nanosecond += Int(digit.value - 0x30) * Self.powersOfTen[8 - place]
            }
        }
        let time = TOMLDateTime.Time(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        var offset: Int?
        if let mark = rest.first {
            guard date != nil else { throw invalid("a time without a date cannot have a time zone offset") }
            rest = rest.dropFirst()
            switch mark {
            case "Z", "z":
                offset = 0
            case "+", "-":
                let hours = try field(2, "offset's hours", 0...23)
                try separator(":", "in the offset (+HH:MM)")
                let minutes = try field(2, "offset's minutes", 0...59)
                offset = (mark == "-" ? -1 : 1) * (hours * 60 + minutes)
            default:
                throw invalid("expected Z or an offset (+HH:MM) after the time")
            }
        }
        guard rest.isEmpty else { throw invalid("unexpected characters after it") }
        return TOMLDateTime(date: date, time: time, offsetMinutes: offset)
    }

    private static let powersOfTen = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]
}
