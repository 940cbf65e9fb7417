/// Builds one JSON object per line with keys in a fixed order and numbers in a fixed format,
/// so the same events always produce the same bytes.
public struct JSONLineWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init() {
        bytes.reserveCapacity(256)
    }

    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    public mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        Self.appendLiteral(name, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Appends a literal's bytes. A `String` literal's `utf8` view would go through the
    /// standard library's generic copy, which a level event on the audio thread pays per key.
    private static func appendLiteral(_ literal: StaticString, to bytes: inout [UInt8]) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ value: String) {
        Self.appendString(value, to: &bytes)
        needsComma = true
    }

    /// Appends `string` as a JSON string, escaping what JSON requires and nothing else.
    public static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for unit in string.utf8 {
            switch unit {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                bytes.append(contentsOf: #"\u00"#.utf8)
                hex.withUTF8Buffer { hex in
                    bytes.append(hex[Int(unit >> 4)])
                    bytes.append(hex[Int(unit & 0xF)])
                }
            default: bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func null() {
        Self.appendLiteral("null", to: &bytes)
        needsComma = true
    }

    /// Writes `value`, or `null` when it is `nil`.
    public mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes any JSON value, compact, object members in their order.
    public mutating func value(_ value: JSONValue) {
        value.write(to: &bytes)
        needsComma = true
    }

    /// Writes each member of `object` as a key and its value inside the object being written.
    public mutating func members(_ object: JSONObject) {
        for member in object.members {
            if needsComma { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            member.value.write(to: &bytes)
            needsComma = true
        }
    }

    public mutating func bool(_ value: Bool) {
        Self.appendLiteral(value ? "true" : "false", to: &bytes)
        needsComma = true
    }

    /// Writes `value` rounded to `decimals` places, without exponent, trailing zeros kept.
    /// Non-finite values are written as 0 (JSON has no NaN).
    public mutating func number(_ value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value.isFinite ? (value * scale).rounded() : 0
        appendDigits(UInt64(Swift.min(Swift.abs(scaled), 9e17)), negative: scaled < 0, decimals: decimals)
    }

    /// Writes `value` in decimal, exactly.
    public mutating func integer(_ value: Int) {
        appendDigits(UInt64(value.magnitude), negative: value < 0, decimals: 0)
    }

    /// Writes `magnitude` with a decimal point `decimals` digits from the right ("0.05" for
    /// 5 with 2); a minus sign only for a non-zero negative.
    private mutating func appendDigits(_ magnitude: UInt64, negative: Bool, decimals: Int) {
        if negative && magnitude > 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits least significant first, at least one more than the decimals.
        var digits: [20 of UInt8] = .init(repeating: UInt8(ascii: "0"))
        var remaining = magnitude
        var count = 0
        repeat {
            digits[count] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            count += 1
        } while remaining > 0
        count = Swift.max(count, decimals + 1)
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(digits[index])
            if index == decimals && decimals > 0 { bytes.append(UInt8(ascii: ".")) }
        }
        needsComma = true
    }

    public mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Separates array elements.
    public mutating func element() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }
}
