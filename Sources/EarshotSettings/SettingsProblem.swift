/// One thing wrong with a configuration file, worded like a compiler's diagnostic so an editor
/// can jump to it and a person can act on it:
///
///     config.toml:12:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("700")
public struct SettingsProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, as it was named when read.
    public var file: String
    /// Where in the file, when known (always, except for a file that cannot be read).
    public var position: SourcePosition?
    /// The key at fault, dotted (`listening.end_silence_ms`); nil for the whole file.
    public var keyPath: String?
    /// How the message names what is at fault: `[listening] end_silence_ms`, `[listning]`.
    public var subject: String?
    public var message: String

    public init(file: String, position: SourcePosition? = nil, keyPath: String? = nil, subject: String? = nil, message: String) {
        self.file = file
        self.position = position
        self.keyPath = keyPath
        self.subject = subject
        self.message = message
    }

    public var line: Int? { position?.line }
    public var column: Int? { position?.column }

    public var description: String {
        let place = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return [place, subject, message].compactMap { $0 }.joined(separator: ": ")
    }
}
