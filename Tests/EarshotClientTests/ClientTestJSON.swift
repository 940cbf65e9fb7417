import EarshotBase

extension JSONValue {
    /// `text` parsed, for tests that write what the daemon sends as it sends it.
    static func parsed(_ text: String) -> JSONValue {
        do {
            return try JSONParser.parse(Array(text.utf8))
        } catch {
            fatalError("not JSON in a test: \(error): \(text)")
        }
    }
}
