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

    /// Appends `string` as a JSON string, escaping what JSON requires and nothing else.
    static func writeString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for unit in string.utf8 {
            switch unit {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(unit >> 4)])
                bytes.append(hex[Int(unit & 0xF)])
            default: bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONObject {
    /// Appends `"key":value` for every member, comma-separated, without braces; with
    /// `leadingComma`, a comma precedes the first one (to continue an object already begun).
    func writeMembers(to bytes: inout [UInt8], leadingComma: Bool) {
        for (index, member) in members.enumerated() {
            if index > 0 || leadingComma { bytes.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            member.value.write(to: &bytes)
        }
    }
}
