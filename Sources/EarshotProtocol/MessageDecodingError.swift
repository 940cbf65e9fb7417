import EarshotBase

/// Why a line or an object from the other end is not the message it should be.
public struct MessageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

extension JSONObject {
    /// The value of `key` read by `read`; a missing key, or one `read` refuses, is an error that
    /// names `what` holds it.
    func required<Value>(_ key: String, in what: String, _ read: (JSONValue) -> Value?) throws(MessageDecodingError) -> Value {
        guard let json = self[key] else { throw MessageDecodingError(description: "\(what) has no \"\(key)\"") }
        guard let value = read(json) else {
            throw MessageDecodingError(description: "\(what) has \(json.typeName) for \"\(key)\"")
        }
        return value
    }

    /// A value of one of `Value`'s raw values, by `key`.
    func required<Value: RawRepresentable<String>>(_ key: String, in what: String, as: Value.Type) throws(MessageDecodingError) -> Value {
        let name = try required(key, in: what, \.stringValue)
        guard let value = Value(rawValue: name) else {
            throw MessageDecodingError(description: "\(what) has an unknown \"\(key)\": \(name)")
        }
        return value
    }

    /// A list of strings, by `key`.
    func requiredStrings(_ key: String, in what: String) throws(MessageDecodingError) -> [String] {
        try required(key, in: what) { json in
            json.arrayValue.flatMap { values in
                let strings = values.compactMap(\.stringValue)
                return strings.count == values.count ? strings : nil
            }
        }
    }
}
