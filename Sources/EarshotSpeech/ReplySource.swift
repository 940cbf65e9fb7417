/// What answers a final transcript with speakable pieces (sentences), streamed as they come:
/// the responder command, or the assistant on an OpenAI-compatible chat server. Cancelling the
/// stream's iteration stops the answer at once (the command is killed, the request dropped).
public protocol ReplySource: Sendable {
    /// What it is, for `status` and the log: "responder `cmd`", "assistant at URL (model m)".
    var name: String { get }

    /// Streams the speakable pieces of the reply to `transcript`, said in `turn`.
    func respond(turn: Int, transcript: String) -> AsyncThrowingStream<String, any Error>

    /// What the person heard of the reply to `turn`: every piece played in full, then the words
    /// of the last one played before it stopped. Called once the reply ends, however it ends.
    func heard(turn: Int, text: String)

    /// Forgets the conversation so far (`dismiss`, `forget`).
    func forget()

    /// The person went on speaking after `turn` seemed over: its question was only the first
    /// part of the next turn's, and is forgotten.
    func withdraw(turn: Int)
}

extension ReplySource {
    public func heard(turn: Int, text: String) {}
    public func forget() {}
    public func withdraw(turn: Int) {}
}

/// A reply source's failure worded twice: `message` for the `error` event and the log, `notice`
/// for the person, said in the current voice ("I can't reach the assistant at 127.0.0.1:11434.").
public struct ReplyFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var notice: String

    public init(message: String, notice: String) {
        self.message = message
        self.notice = notice
    }

    public var description: String { message }
}
