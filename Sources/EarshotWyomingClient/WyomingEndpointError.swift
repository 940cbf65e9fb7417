/// Why a text is not a Wyoming server address.
public struct WyomingEndpointError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String {
        "\"\(text)\" is not a Wyoming server address (\(reason)): use tcp://HOST:PORT or unix:///PATH"
    }
}
