public import EarshotSpeech

/// Text to speech with flite in this process: English only, a handful of built-in voices, about
/// a hundred times faster than real time.
///
/// Audio streams as it is made, sentence by sentence, at the voice's own rate (8 kHz for kal,
/// 16 kHz for the others). Texts are spoken one at a time, in the order asked for, on a queue of
/// their own; ending iteration early stops the synthesis within a chunk.
public struct FliteSynthesizer: Synthesizer {
    public let name = "flite (embedded)"

    public init() {}

    /// Speaks in `voice.flite`'s settings; a voice without them fails with `.misconfigured`.
    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        guard let settings = voice.flite else {
            return AsyncThrowingStream {
                throw SpeechError(.misconfigured, "the voice \"\(voice.displayName)\" has no flite settings")
            }
        }
        return synthesize(text, settings: settings)
    }

    public func synthesize(_ text: String, settings: Voice.Flite) -> AsyncThrowingStream<SpeechChunk, any Error> {
        let (stream, sink) = SpeechChunkSink.makeStream()
        FliteEngine.shared.speak(text, settings: settings, into: sink)
        return stream
    }
}
