/// A JSON value as it appeared on the wire: object keys keep their order (duplicates included)
/// and numbers keep their literal text, so a request `id` can be echoed back unchanged.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// An integer number.
    public static func integer(_ value: Int) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// A number rounded to `decimals` places, written without exponent (non-finite becomes 0).
    public static func number(_ value: Double, decimals: Int) -> JSONValue {
        .number(JSONNumber(value, decimals: decimals))
    }

    /// A string, or `null` when `value` is `nil`.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The JSON type's name as a person would say it, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The number's value, when this is a number.
    public var doubleValue: Double? {
        numberValue?.doubleValue
    }

    /// The number's value when this is a whole number that fits an `Int` (see ``JSONNumber/integerValue``).
    public var integerValue: Int? {
        numberValue?.integerValue
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The member named `key` when this is an object (the last one, if repeated).
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) {
        self = .null
    }

    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    public init(integerLiteral value: Int) {
        self = .integer(value)
    }

    public init(stringLiteral value: String) {
        self = .string(value)
    }

    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

/// A JSON object's members in the order they were written. Lookups take the last member with a
/// given key, as most JSON parsers do; encoding writes them all, in order.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    public init(_ pairs: [(String, JSONValue)]) {
        self.members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    public var isEmpty: Bool {
        members.isEmpty
    }

    /// The value of the last member named `key`; setting replaces it or appends a new member.
    public subscript(key: String) -> JSONValue? {
        get {
            members.last { $0.key == key }?.value
        }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }
}

/// A JSON number kept as its literal text, so that it is echoed exactly as it was sent
/// (`1.50` stays `1.50`, `1e3` stays `1e3`).
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The literal; always valid JSON number syntax.
    public let text: String

    /// Wraps a literal the parser has already checked.
    init(validatedText: String) {
        self.text = validatedText
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    /// `value` rounded to `decimals` places, trailing zeros kept, no exponent; non-finite is 0.
    public init(_ value: Double, decimals: Int) {
        self.text = FixedDecimal.format(value, decimals: decimals)
    }

    public var description: String {
        text
    }

    public var doubleValue: Double {
        Double(text) ?? 0
    }

    /// The value when it is a whole number that fits an `Int` (`30`, `30.0` and `3e1` all are).
    public var integerValue: Int? {
        if let exact = Int(text) { return exact }
        guard let value = Double(text), value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }
}

extension JSONValue {
    /// The compact JSON text of this value: no whitespace, object members in order.
    public var jsonText: String {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of this value.
    public func write(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let value):
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number):
            bytes.append(contentsOf: number.text.utf8)
        case .string(let string):
            Self.writeString(string, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            object.writeMembers(to: &bytes, leadingComma: false)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` as a JSON string.
    static func writeString(_ string: String, to bytes: inout [UInt8]) {
        JSONLineWriter.appendString(string, to: &bytes)
    }
}

extension JSONObject {
    /// Appends `"key":value` for every member, comma-separated, without braces; with
    /// `leadingComma`, a comma precedes the first one (to continue an object already begun).
    public func writeMembers(to bytes: inout [UInt8], leadingComma: Bool) {
        for (index, member) in members.enumerated() {
            if index > 0 || leadingComma { bytes.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            member.value.write(to: &bytes)
        }
    }
}

/// Formats numbers exactly as the event writer does, for numbers that end up in a `JSONValue`.
public enum FixedDecimal {
    public static func format(_ value: Double, decimals: Int) -> String {
        var writer = JSONLineWriter()
        writer.number(value, decimals: decimals)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The fewest decimals, from 1 to `maximum`, that write `value` without rounding it, so a
    /// short delay reads `0.5` rather than `0.50` while staying deterministic.
    public static func shortestDecimals(_ value: Double, maximum: Int) -> Int {
        var scale = 10.0
        for decimals in 1..<maximum {
            let scaled = value * scale
            if abs(scaled - scaled.rounded()) < 1e-9 * max(1, abs(scaled)) { return decimals }
            scale *= 10
        }
        return maximum
    }
}
