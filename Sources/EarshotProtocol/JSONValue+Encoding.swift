import EarshotPipeline

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
    func writeMembers(to bytes: inout [UInt8], leadingComma: Bool) {
        for (index, member) in members.enumerated() {
            if index > 0 || leadingComma { bytes.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            member.value.write(to: &bytes)
        }
    }
}
