import Foundation

extension JSON: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: the decoder refuses to read a number as a Bool and vice versa, so
        // this order tells `true` from `1`.
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSON].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Parses one line of JSON text; `nil` if it is not JSON.
    public init?(parsing text: some StringProtocol) {
        guard let value = try? JSONDecoder().decode(JSON.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    /// Compact JSON text (no whitespace; object keys sorted so the same value gives the same text).
    public var jsonText: String {
        var text = ""
        append(to: &text)
        return text
    }

    func append(to text: inout String) {
        switch self {
        case .null:
            text += "null"
        case .bool(let flag):
            text += flag ? "true" : "false"
        case .number(let number):
            text += Self.numberText(number)
        case .string(let string):
            Self.appendQuoted(string, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.append(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.appendQuoted(key, to: &text)
                text += ":"
                members[key]!.append(to: &text)
            }
            text += "}"
        }
    }

    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }  // JSON has no infinities or NaN.
        if number.rounded() == number, abs(number) < 9.0e15 { return String(Int(number)) }
        return String(number)
    }

    static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let control where control.value < 0x20:
                text += "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
