/// Why a text is not TOML, and where: the first problem the parser met.
///
/// `message` says what is wrong in words a person can act on, without the place, so a caller
/// can put its own file name in front: `config.toml:8:18: invalid TOML: <message>`.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var position: TOMLPosition
    public var message: String

    public init(_ message: String, at position: TOMLPosition) {
        self.position = position
        self.message = message
    }

    public var line: Int { position.line }
    public var column: Int { position.column }

    /// `8:18: expected a value …`.
    public var description: String { "\(position): \(message)" }
}
