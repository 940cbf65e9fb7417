public import EarshotSpeech
import EarshotEspeak
import EarshotFlite
import EarshotPocketSphinx
import EarshotWyomingClient
public import Logging

/// Makes the configured backends.
public enum SpeechBackends {
    public static func transcriber(_ choice: BackendChoice, logger: Logger) -> (any Transcriber)? {
        switch choice {
        case .none: nil
        case .embedded: EmbeddedTranscriber()
        case .wyoming(let endpoint): WyomingTranscriber(endpoint: endpoint, logger: logger)
        }
    }

    public static func synthesizer(_ choice: BackendChoice, logger: Logger) -> (any Synthesizer)? {
        switch choice {
        case .none: nil
        case .embedded: EmbeddedSynthesizer()
        case .wyoming(let endpoint): WyomingSynthesizer(endpoint: endpoint, logger: logger)
        }
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
