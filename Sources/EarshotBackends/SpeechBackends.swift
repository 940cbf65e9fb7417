public import EarshotSpeech
import EarshotEspeak
import EarshotFlite
import EarshotPocketSphinx
public import EarshotOpenAIClient
import EarshotWyomingClient
public import Logging

/// Makes the configured backends.
public enum SpeechBackends {
    public static func transcriber(_ choice: BackendChoice, options: BackendOptions = .init(), logger: Logger) -> (any Transcriber)? {
        switch choice {
        case .none: nil
        case .embedded: EmbeddedTranscriber()
        case .wyoming(let endpoint): WyomingTranscriber(endpoint: endpoint, model: options.model, logger: logger)
        case .openAI(let endpoint): OpenAITranscriber(endpoint: endpoint, model: options.model, apiKey: options.apiKey, logger: logger)
        }
    }

    public static func synthesizer(_ choice: BackendChoice, options: BackendOptions = .init(), logger: Logger) -> (any Synthesizer)? {
        switch choice {
        case .none: nil
        case .embedded: EmbeddedSynthesizer()
        case .wyoming(let endpoint): WyomingSynthesizer(endpoint: endpoint, logger: logger)
        case .openAI(let endpoint): OpenAISynthesizer(endpoint: endpoint, apiKey: options.apiKey, logger: logger)
        }
    }
}

/// What a server backend is asked for besides its address.
public struct BackendOptions: Equatable, Sendable {
    /// The model to ask for; nil: the server's default (OpenAI-compatible servers: whisper-1).
    public var model: String?
    /// The key for an OpenAI-compatible server; nil sends none.
    public var apiKey: OpenAIAPIKey?

    public init(model: String? = nil, apiKey: OpenAIAPIKey? = nil) {
        self.model = model
        self.apiKey = apiKey
    }

    /// With the key from `keyFile` (checked: its owner's alone), else from `OPENAI_API_KEY`.
    public static func loading(model: String?, keyFile: String?) throws(OpenAIAPIKeyError) -> BackendOptions {
        BackendOptions(model: model, apiKey: try OpenAIAPIKey.load(file: keyFile, environment: OpenAIAPIKey.processEnvironment))
    }
}

/// The offline default: flite for English voices (far clearer), espeak-ng for other languages
/// or a voice with no flite settings.
public struct EmbeddedSynthesizer: Synthesizer {
    private let flite = FliteSynthesizer()
    private let espeak = EspeakSynthesizer()

    public init() {}

    public let name = "flite + espeak-ng (embedded)"

    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        if voice.isEnglish, voice.flite != nil { return flite.synthesize(text, voice: voice) }
        return espeak.synthesize(text, voice: voice)
    }
}
