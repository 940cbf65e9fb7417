/// A backend setting that names no backend.
public struct BackendChoiceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public var kind: String
    public var reason: String

    public var description: String {
        text.contains("://")
            ? "\"\(text)\" is not a usable \(kind) server address: \(reason)"
            : "\"\(text)\" is not a \(kind) backend: use embedded, none, tcp://HOST:PORT or unix:///PATH."
    }
}
