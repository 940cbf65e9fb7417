/// A strict JSON parser (RFC 8259) that keeps object member order and number literals.
///
/// Written here rather than using Foundation's `JSONSerialization` because requests need both
/// (`id` is echoed unchanged), error messages must say where parsing failed, and it runs on the
/// server's event loop for every request.
public struct JSONParser {
    /// Deeper nesting is refused so a line of 64 KiB of `[` cannot exhaust the stack.
    public static let maximumDepth = 128

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON value, optionally surrounded by whitespace, that makes up all of `text`.
    public static func parse(_ text: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text))
        parser.skipWhitespace()
        if parser.index == parser.bytes.count {
            throw parser.failure(parser.bytes.isEmpty ? "the line is empty" : "the line holds only whitespace")
        }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func failure(_ reason: String) -> JSONParseError {
        failure(reason, at: index)
    }

    private func failure(_ reason: String, at offset: Int) -> JSONParseError {
        let clamped = min(offset, bytes.count)
        let charactersBefore = bytes[..<clamped].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return JSONParseError(reason: reason, offset: clamped, column: charactersBefore + 1)
    }

    private mutating func skipWhitespace() {
        while let byte = current,
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        {
            index += 1
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw failure("the line ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        default: throw failure("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let start = index
        let matches = word.withUTF8Buffer { expected in
            bytes.count - start >= expected.count && zip(bytes[start...], expected).allSatisfy { $0 == $1 }
        }
        guard matches else { throw failure("expected a value (object, array, string, number, true, false or null)") }
        index += word.utf8CodeUnitCount
        return value
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the member name \"\(key)\"") }
            index += 1
            skipWhitespace()
            object.append(key, try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(object)
            default:
                throw failure("expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw failure("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure("expected a digit in a number") }
        if first == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw failure("expected a digit after the decimal point") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        return JSONNumber(validatedText: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while isDigit(current) { index += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let opening = index
        index += 1
        var unescaped: [UInt8] = []
        var runStart = index
        while true {
            guard let byte = current else { throw failure("the line ends inside the string that starts", at: opening) }
            switch byte {
            case UInt8(ascii: "\""):
                unescaped.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard let string = String(validating: unescaped, as: UTF8.self) else {
                    throw failure("the string is not valid UTF-8", at: opening)
                }
                return string
            case UInt8(ascii: "\\"):
                unescaped.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &unescaped)
                runStart = index
            case 0..<0x20:
                throw failure("a control character in a string must be escaped")
            default:
                index += 1
            }
        }
    }

    /// Reads the escape at `index` (a backslash) and appends what it stands for.
    private mutating func parseEscape(into output: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard let letter = current else { throw failure("the line ends inside an escape sequence") }
        index += 1
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case UInt8(ascii: "/"): UInt8(ascii: "/")
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): UInt8(ascii: "\n")
            case UInt8(ascii: "r"): UInt8(ascii: "\r")
            case UInt8(ascii: "t"): UInt8(ascii: "\t")
            default: nil
            }
        if let simple {
            output.append(simple)
            return
        }
        guard letter == UInt8(ascii: "u") else { throw failure("unknown escape sequence", at: start) }
        var scalarValue = UInt32(try parseHexQuad())
        if (0xD800...0xDBFF).contains(scalarValue) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate escape must be followed by a low one", at: start)
            }
            index += 2
            let low = UInt32(try parseHexQuad())
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("a high surrogate escape must be followed by a low one", at: start)
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw failure("a low surrogate escape without a high one before it", at: start)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("invalid \\u escape", at: start) }
        output.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw failure("the line ends inside a \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hex digits after \\u")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}

/// Why a text is not JSON, and where parsing stopped.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ':' after an object key".
    public var reason: String
    /// Byte offset into the text where parsing failed (0-based).
    public var offset: Int
    /// Character position where parsing failed (1-based), for people.
    public var column: Int

    public init(reason: String, offset: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.column = column
    }

    public var description: String {
        "\(reason) at column \(column)"
    }
}

/// Finds where a byte sequence stops being valid UTF-8, so the error can say where.
public enum UTF8Validation {
    /// The offset of the first byte of the first invalid sequence, or `nil` when all is valid.
    public static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
