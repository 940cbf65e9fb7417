import EarshotBase

/// Typed reads of an event's data with errors naming the field, as `asr[0].models[1].name`.
struct WyomingFields {
    let object: JSONObject
    let eventType: String
    /// Where `object` sits in the event's data, empty at the top.
    let path: String

    init(_ object: JSONObject, eventType: String, path: String = "") {
        self.object = object
        self.eventType = eventType
        self.path = path
    }

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func failure(_ key: String, _ problem: String) -> WyomingMessageError {
        WyomingMessageError(eventType: eventType, reason: "\(name(key)) \(problem)")
    }

    /// The value of `key`, nil when absent or null.
    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(WyomingMessageError) -> String {
        guard let value = try optionalString(key) else { throw failure(key, "is missing") }
        return value
    }

    func optionalString(_ key: String) throws(WyomingMessageError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.stringValue else { throw failure(key, "is \(value.typeName), not a string") }
        return string
    }

    func int(_ key: String) throws(WyomingMessageError) -> Int {
        guard let value = try optionalInt(key) else { throw failure(key, "is missing") }
        return value
    }

    /// A whole number; a fractional one (some peers write timestamps as floats) is rounded down.
    func optionalInt(_ key: String) throws(WyomingMessageError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.numberValue else { throw failure(key, "is \(value.typeName), not a number") }
        if let exact = number.integerValue { return exact }
        let double = number.doubleValue
        guard double.isFinite, abs(double) < 9.0e15 else { throw failure(key, "is \(number.text), out of range") }
        return Int(double.rounded(.down))
    }

    func bool(_ key: String, default defaultValue: Bool) throws(WyomingMessageError) -> Bool {
        guard let value = value(key) else { return defaultValue }
        guard let bool = value.boolValue else { throw failure(key, "is \(value.typeName), not true or false") }
        return bool
    }

    func optionalObject(_ key: String) throws(WyomingMessageError) -> WyomingFields? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw failure(key, "is \(value.typeName), not an object") }
        return WyomingFields(object, eventType: eventType, path: name(key))
    }

    /// The objects in the array `key`; absent or null is empty.
    func objects(_ key: String) throws(WyomingMessageError) -> [WyomingFields] {
        guard let value = value(key) else { return [] }
        guard let array = value.arrayValue else { throw failure(key, "is \(value.typeName), not an array") }
        var result: [WyomingFields] = []
        for (index, element) in array.enumerated() {
            guard let object = element.objectValue else { throw failure("\(key)[\(index)]", "is \(element.typeName), not an object") }
            result.append(WyomingFields(object, eventType: eventType, path: name("\(key)[\(index)]")))
        }
        return result
    }

    /// The strings in the array `key`; absent or null is nil.
    func optionalStrings(_ key: String) throws(WyomingMessageError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw failure(key, "is \(value.typeName), not an array") }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue else { throw failure("\(key)[\(index)]", "is \(element.typeName), not a string") }
            result.append(string)
        }
        return result
    }
}

extension JSONObject {
    /// Appends the member only when there is a value: Wyoming leaves out what it does not know.
    mutating func append(_ key: String, ifPresent value: JSONValue?) {
        if let value { append(key, value) }
    }
}
