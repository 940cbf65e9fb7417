import EarshotProtocol

extension JSONObject {
    /// Appends the member only when there is a value: Wyoming leaves out what it does not know.
    mutating func append(_ key: String, ifPresent value: JSONValue?) {
        if let value { append(key, value) }
    }
}
