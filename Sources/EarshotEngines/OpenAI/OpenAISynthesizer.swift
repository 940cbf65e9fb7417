import AsyncHTTPClient
public import EarshotSpeech
public import Logging
import NIOCore

/// Text-to-speech on an OpenAI-compatible server (Kokoro-FastAPI, speaches, LocalAI, OpenAI):
/// `POST audio/speech` for raw `pcm`, yielded as it streams in, so the start of a reply plays
/// while the server still synthesizes the rest.
///
/// The voice's `[openai]` settings name the server's voice, model and audio rate; a voice without
/// them is spoken in OpenAI's `alloy` with `tts-1`. A busy server (429, 5xx) is asked again, after
/// its `Retry-After`, as long as no audio has played; ending iteration cancels the request.
public struct OpenAISynthesizer: Synthesizer {
    public let endpoint: OpenAIEndpoint
    public let timeouts: OpenAITimeouts
    private let apiKey: OpenAIAPIKey?
    private let logger: Logger
    /// How often a request the server turned away for now is sent again before failing.
    public var retries = 2
    /// The wait before a retry when the server gave no `Retry-After`.
    public var retryDelay = Duration.milliseconds(500)

    /// Spoken when a voice has no `[openai]` settings.
    public static let fallbackVoice = Voice.OpenAI(voice: "alloy")

    public init(
        endpoint: OpenAIEndpoint, apiKey: OpenAIAPIKey? = nil, timeouts: OpenAITimeouts = OpenAITimeouts(),
        logger: Logger = Logger(label: "earshot.openai.tts", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.timeouts = timeouts
        self.logger = logger
    }

    public var name: String { "OpenAI-compatible text-to-speech at \(endpoint.baseURL)" }

    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SpeechChunk.self)
        guard text.contains(where: { !$0.isWhitespace }) else {
            continuation.finish()
            return stream
        }
        let settings = voice.openAI ?? Self.fallbackVoice
        let request = OpenAISpeechRequest(model: settings.model, voice: settings.voice, input: text)
        let task = Task {
            do {
                try await speak(request, sampleRate: settings.sampleRate) { continuation.yield($0) }
                continuation.finish()
            } catch {
                if Task.isCancelled {
                    continuation.finish(throwing: CancellationError())
                } else {
                    let speechError = error.speechError(.textToSpeech, endpoint: endpoint)
                    logger.debug("\(speechError.message)")
                    continuation.finish(throwing: speechError)
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func speak(
        _ request: OpenAISpeechRequest, sampleRate: Int, emit: @escaping @Sendable (SpeechChunk) -> Void
    ) async throws {
        let exchange = OpenAIExchange(endpoint: endpoint, service: .textToSpeech, apiKey: apiKey, timeouts: timeouts)
        var attempt = 0
        while true {
            let sent = ContinuousClock.now
            do {
                try await exchange.post(body: request.body, contentType: "application/json", awaiting: "the first audio") {
                    [idle = timeouts.idle, logger, endpoint] response, watch in
                    var decoder = PCM16Decoder()
                    var first = true
                    for try await piece in response.body {
                        watch.expect("the rest of the audio", within: idle)
                        let samples = decoder.decode(piece.readableBytesView)
                        guard !samples.isEmpty else { continue }
                        if first {
                            first = false
                            logger.debug("first audio \(ContinuousClock.now - sent) after the request", metadata: ["server": "\(endpoint.baseURL)"])
                        }
                        emit(SpeechChunk(sampleRate: sampleRate, samples: samples))
                    }
                }
                return
            } catch {
                // Asked again only before any audio: a reply must not start over in the middle.
                let speechError = error.speechError(.textToSpeech, endpoint: endpoint)
                guard attempt < retries, speechError.isRetryable, case .status = error else { throw error }
                attempt += 1
                try await Task.sleep(for: max(speechError.retryAfter ?? retryDelay, retryDelay))
            }
        }
    }
}
