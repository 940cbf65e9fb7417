import AsyncHTTPClient
public import EarshotSpeech
import NIOCore

/// Streams chat completions from an OpenAI-compatible server (Ollama, llama.cpp's
/// `llama-server`, LM Studio, OpenAI): `POST chat/completions` with `stream: true`, whose
/// server-sent events become the reply's words as the model writes them.
///
/// Cancelling the stream's iteration drops the request at once. A failure finishes the stream
/// with an ``OpenAIFailure``: the server unreachable, an error status, nothing for the time
/// allowed (`timeouts.response` to the first word, `timeouts.idle` between two), or a reply cut
/// off before its end.
public struct OpenAIChatClient: Sendable {
    public let endpoint: OpenAIEndpoint
    public let model: String
    public let timeouts: OpenAITimeouts
    private let apiKey: OpenAIAPIKey?

    /// An answer of a server that does not stream longer than this is not a reply.
    static let maximumAnswerBytes = 4 << 20

    public init(endpoint: OpenAIEndpoint, model: String, apiKey: OpenAIAPIKey? = nil, timeouts: OpenAITimeouts = OpenAITimeouts()) {
        self.endpoint = endpoint
        self.model = model
        self.apiKey = apiKey
        self.timeouts = timeouts
    }

    /// The reply to `messages`, in pieces as they arrive (each one or more tokens).
    public func stream(_ messages: [OpenAIChatMessage]) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let exchange = OpenAIExchange(endpoint: endpoint, service: .chat, apiKey: apiKey, timeouts: timeouts)
        let body = OpenAIChatRequest(model: model, messages: messages).body
        let idle = timeouts.idle
        let task = Task {
            do {
                try await exchange.post(body: body, contentType: "application/json", awaiting: "the first word of the reply") { response, watch in
                    let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
                    guard type.hasPrefix("text/event-stream") else {
                        let answer = try await response.body.collect(upTo: Self.maximumAnswerBytes)
                        guard let content = OpenAIChatResponse.content(in: Array(answer.readableBytesView)) else {
                            throw OpenAIFailure.unusable("an answer without choices[0].message.content")
                        }
                        continuation.yield(content)
                        return
                    }
                    var reader = OpenAIChatStreamReader()
                    do {
                        for try await piece in response.body {
                            watch.expect("the rest of the reply", within: idle)
                            let words = try reader.read(piece.readableBytesView)
                            if !words.isEmpty { continuation.yield(words) }
                            if reader.isDone { break }
                        }
                        try reader.finish()
                    } catch let error as OpenAIChatStreamError {
                        // Thrown as what it means: the exchange takes any other error for a broken connection.
                        throw Self.failure(error)
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: Self.failure(error))
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// What a failure of the exchange or the stream means.
    static func failure(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        switch error {
        case let failure as OpenAIFailure:
            return failure
        case OpenAIChatStreamError.cutOff:
            return OpenAIFailure.connectionBroken("the reply stopped before its end")
        case OpenAIChatStreamError.failed(let message):
            return OpenAIFailure.status(500, message: message, retryAfter: nil)
        case OpenAIChatStreamError.unusable(let what):
            return OpenAIFailure.unusable(what)
        default:
            return OpenAIExchange.failure(error)
        }
    }
}
