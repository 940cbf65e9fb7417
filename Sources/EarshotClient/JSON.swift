/// A JSON value as the daemon sends it: what the client reads out of responses and events.
///
/// Numbers are doubles, as in JSON itself; `int` reads integral ones.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    public var double: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    public var int: Int? {
        guard case .number(let number) = self, number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    public var bool: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    public var array: [JSON]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    public var object: [String: JSON]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    public var isNull: Bool { self == .null }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
