import AsyncHTTPClient
public import EarshotSpeech
public import Logging
import NIOCore

/// Speech-to-text on an OpenAI-compatible server (whisper.cpp's server, speaches, LocalAI,
/// OpenAI): `POST audio/transcriptions` with the utterance as a WAV file once it has ended.
///
/// It asks for a stream (`stream=true`): servers that offer one answer with server-sent
/// events, whose `transcript.text.delta` events become partial transcripts; the others answer
/// `{"text": …}`, which is as good. A failure throws a ``SpeechError`` saying which server did
/// what; the caller keeps the utterance and sends it again (``SpeechError/retryAfter`` carries the
/// server's `Retry-After`).
public struct OpenAITranscriber: Transcriber {
    public let endpoint: OpenAIEndpoint
    public let model: String
    public let timeouts: OpenAITimeouts
    private let apiKey: OpenAIAPIKey?
    private let logger: Logger

    /// The model asked for when the configuration names none: OpenAI's, which whisper.cpp's
    /// server ignores and speaches maps to its default.
    public static let defaultModel = "whisper-1"
    /// A transcript longer than this is not a transcript.
    static let maximumAnswerBytes = 1 << 20

    public init(
        endpoint: OpenAIEndpoint, model: String? = nil, apiKey: OpenAIAPIKey? = nil, timeouts: OpenAITimeouts = OpenAITimeouts(),
        logger: Logger = Logger(label: "earshot.openai.stt", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.endpoint = endpoint
        self.model = model ?? Self.defaultModel
        self.apiKey = apiKey
        self.timeouts = timeouts
        self.logger = logger
    }

    public var name: String { "OpenAI-compatible speech-to-text at \(endpoint.baseURL) (model \(model))" }

    public func transcribe(
        _ audio: UtteranceAudio,
        language: String,
        partial: @escaping @Sendable (PartialTranscript) -> Void
    ) async throws -> String {
        var samples: [Int16] = []
        for await chunk in audio { samples += chunk }
        try Task.checkCancellation()
        guard !samples.isEmpty else { return "" }
        let request = OpenAITranscriptionRequest(model: model, language: language)
        var random = SystemRandomNumberGenerator()
        let form = request.body(samples: samples, sampleRate: 16_000, boundary: MultipartForm.randomBoundary(using: &random))
        let exchange = OpenAIExchange(endpoint: endpoint, service: .speechToText, apiKey: apiKey, timeouts: timeouts)
        let sent = ContinuousClock.now
        let idle = timeouts.idle
        do {
            let text = try await exchange.post(body: form.bytes, contentType: form.contentType, awaiting: "the transcript") {
                response, watch in
                let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
                if type.hasPrefix("text/event-stream") {
                    return try await Self.readEvents(response, watch: watch, idle: idle, partial: partial)
                }
                let body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
                let bytes = Array(body.readableBytesView)
                if type.hasPrefix("text/plain") { return String(decoding: bytes, as: UTF8.self) }
                guard let text = OpenAITranscriptionResponse.text(in: bytes) else {
                    throw OpenAIFailure.unusable("an answer without a \"text\" field")
                }
                return text
            }
            logger.debug("transcript \(ContinuousClock.now - sent) after the request", metadata: ["server": "\(endpoint.baseURL)"])
            return text.trimmingWhitespace
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let speechError = error.speechError(.speechToText, endpoint: endpoint)
            logger.debug("\(speechError.message)")
            throw speechError
        }
    }

    /// Reads the events of a streamed transcription: deltas become partials, `done` the text.
    private static func readEvents(
        _ response: HTTPClientResponse, watch: StallWatch, idle: Duration, partial: @Sendable (PartialTranscript) -> Void
    ) async throws -> String {
        var reader = ServerSentEventReader()
        var running = ""
        var final: String?
        for try await piece in response.body {
            watch.expect("the rest of the transcript", within: idle)
            for event in try reader.read(piece.readableBytesView) {
                switch OpenAITranscriptionEvent(event) {
                case .delta(let delta)?:
                    running += delta
                    partial(PartialTranscript(text: running.trimmingWhitespace))
                case .done(let text)?:
                    final = text
                case .failed(let message)?:
                    throw OpenAIFailure.status(500, message: message, retryAfter: nil)
                case .other?, nil:
                    break
                }
            }
        }
        guard let final else { throw OpenAIFailure.connectionBroken("the event stream ended before transcript.text.done") }
        return final
    }
}

extension Error {
    /// This failure worded for a person, naming the server.
    func speechError(_ service: OpenAIService, endpoint: OpenAIEndpoint) -> SpeechError {
        if let error = self as? SpeechError { return error }
        if let error = self as? ServerSentEventError { return OpenAIFailure.unusable(error.description).speechError(service, endpoint: endpoint) }
        return OpenAIExchange.failure(self).speechError(service, endpoint: endpoint)
    }
}
