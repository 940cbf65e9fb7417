/// One thing wrong with a conversation script, worded for the person who edits it, like a
/// compiler diagnostic:
///
///     barge_in.conversation.toml:9: reply 2: `after_turn` must be a whole number from 1 up, not 0
public struct ScriptProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The script, as it was named when reading.
    public var file: String
    /// The line at fault, when it is known.
    public var line: Int?
    /// The `[[reply]]` at fault, counting from 1; nil for the top of the file.
    public var reply: Int?
    /// The key at fault, nil for the whole file or reply.
    public var key: String?
    /// What is wrong and what would do.
    public var message: String

    public init(file: String, line: Int? = nil, reply: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.reply = reply
        self.key = key
        self.message = message
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let within = reply.map { "reply \($0): " } ?? ""
        return "\(place): \(within)\(message)"
    }
}
