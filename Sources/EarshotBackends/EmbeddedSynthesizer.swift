public import EarshotSpeech
import EarshotEspeak
import EarshotFlite

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
