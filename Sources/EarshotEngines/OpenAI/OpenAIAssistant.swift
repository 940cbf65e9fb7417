public import EarshotSpeech
import EarshotBase

/// The built-in assistant: each final transcript goes to an OpenAI-compatible chat server with
/// the conversation so far, and the reply comes back as sentences fit to speak while the model
/// still writes (markdown, code blocks and URLs are not read out symbol by symbol).
///
/// It remembers the person's turns and, of its own replies, only what was heard
/// (``heard(turn:text:)``), in memory only. A failure finishes the stream with a
/// ``ReplyFailure``: the `error` event's message and a short notice for the person.
public final class OpenAIAssistant: ReplySource {
    public let client: OpenAIChatClient
    public let instructions: String?
    private let history: Locked<OpenAIChatHistory>
    /// Until when the server asked not to be asked again (its `Retry-After`): a turn before then
    /// is answered with the notice alone, without a request.
    private let quietUntil = Locked<ContinuousClock.Instant?>(nil)

    /// Characters a first sentence still being written must have before its first clause is said
    /// alone: any, so "Sure," of "Sure, I can help with that." plays a few tokens after the
    /// model's first, and the rest of the sentence is ready while it plays.
    static let firstClauseLength = 1

    /// Exchanges remembered when the configuration says nothing.
    public static let defaultMaximumTurns = 20

    public init(client: OpenAIChatClient, instructions: String?, maximumTurns: Int = defaultMaximumTurns) {
        self.client = client
        self.instructions = instructions
        self.history = Locked(OpenAIChatHistory(maximumTurns: maximumTurns))
    }

    public var name: String { "assistant at \(client.endpoint.baseURL) (model \(client.model))" }

    /// The conversation as the next request would send it, before the question: for tests and
    /// `status`.
    public func messages(asking transcript: String) -> [OpenAIChatMessage] {
        history.withLock { $0.messages(instructions: instructions, asking: transcript) }
    }

    public func respond(turn: Int, transcript: String) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let (client, endpoint, model, quietUntil) = (client, client.endpoint, client.model, quietUntil)
        if let wait = quietUntil.withLock({ $0.map { $0 - .now } }), wait > .zero {
            let failure = OpenAIFailure.status(429, message: "not asked again before its Retry-After", retryAfter: wait)
            continuation.finish(throwing: failure.assistantFailure(endpoint: endpoint, model: model))
            return stream
        }
        let messages = history.withLock { history in
            defer { history.asked(turn: turn, transcript) }
            return history.messages(instructions: instructions, asking: transcript)
        }
        let task = Task {
            var splitter = SentenceSplitter()
            var markdown = SpokenMarkdown()
            var spokeAny = false
            func speak(_ pieces: [String]) {
                for piece in pieces {
                    guard let spoken = markdown.speakable(piece) else { continue }
                    continuation.yield(spoken)
                    spokeAny = true
                }
            }
            do {
                for try await words in client.stream(messages) {
                    speak(splitter.append(words))
                    // The first sentence starts at its first clause: the person hears
                    // something while the model writes the rest.
                    if !spokeAny, let clause = splitter.takeClause(minimumLength: Self.firstClauseLength) { speak([clause]) }
                }
                speak(splitter.finish())
                continuation.finish()
            } catch is CancellationError {
                continuation.finish(throwing: CancellationError())
            } catch {
                // What was complete before the failure is still said; the notice follows it.
                speak(splitter.finish())
                let failure = (error as? OpenAIFailure) ?? OpenAIExchange.failure(error)
                if case .status(_, _, let retryAfter?) = failure {
                    quietUntil.withLock { $0 = .now + min(retryAfter, OpenAIFailure.longestRetryAfter) }
                }
                continuation.finish(throwing: failure.assistantFailure(endpoint: endpoint, model: model))
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    public func heard(turn: Int, text: String) {
        history.withLock { $0.heard(turn: turn, text) }
    }

    public func withdraw(turn: Int) {
        history.withLock { $0.withdraw(turn: turn) }
    }

    public func forget() {
        history.withLock { $0.forget() }
    }

    /// Exchanges remembered now.
    public var rememberedTurns: Int { history.withLock { $0.count } }
}
