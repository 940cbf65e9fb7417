public import EarshotSpeech
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
