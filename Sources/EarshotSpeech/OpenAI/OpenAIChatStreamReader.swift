/// Reads a streamed chat completion from its body as it arrives, in pieces cut anywhere: the
/// server-sent events become the reply's words, and the stream's end says whether the reply
/// was whole.
///
/// A reply is whole when the server sent `data: [DONE]` or a chunk with a `finish_reason`; a
/// body that ends with neither was cut off mid-reply (the server died, a proxy gave up).
public struct OpenAIChatStreamReader: Sendable {
    private var events: ServerSentEventReader
    /// Why the model stopped, once a chunk has said so (`stop`, `length`, `content_filter`).
    public private(set) var finishReason: String?
    /// Whether `data: [DONE]` has arrived: nothing after it counts.
    public private(set) var isDone = false

    public init(maximumEventBytes: Int = ServerSentEventReader.defaultMaximumEventBytes) {
        events = ServerSentEventReader(maximumEventBytes: maximumEventBytes)
    }

    /// Takes the next piece of the body; returns the words it completed (joined; empty when it
    /// completed none). An error event fails with the server's message.
    public mutating func read(_ bytes: some Sequence<UInt8>) throws(OpenAIChatStreamError) -> String {
        guard !isDone else { return "" }
        let completed: [ServerSentEvent]
        do {
            completed = try events.read(bytes)
        } catch {
            throw .unusable(error.description)
        }
        var words = ""
        for event in completed {
            switch OpenAIChatEvent(event) {
            case .chunk(let content, let reason)?:
                words += content
                if let reason { finishReason = reason }
            case .done?:
                isDone = true
                return words
            case .failed(let message)?:
                throw .failed(message)
            case nil:
                break
            }
        }
        return words
    }

    /// The body has ended: fails when the reply was cut off before its end.
    public mutating func finish() throws(OpenAIChatStreamError) {
        events.finish()
        guard isDone || finishReason != nil else { throw .cutOff }
    }
}

/// Why a streamed chat completion gave no whole reply.
public enum OpenAIChatStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server sent an error event mid-stream; its message.
    case failed(String)
    /// The body ended before `[DONE]` or a `finish_reason`.
    case cutOff
    /// The body is not an event stream the reader can hold (an event too large).
    case unusable(String)

    public var description: String {
        switch self {
        case .failed(let message): "an error in the middle of the reply: \(message)"
        case .cutOff: "the reply stopped before its end"
        case .unusable(let what): what
        }
    }
}
