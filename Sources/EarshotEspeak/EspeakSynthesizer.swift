public import EarshotSpeech

/// Text to speech with espeak-ng in this process: over a hundred languages, robotic but clear,
/// about a thousand times faster than real time.
///
/// Audio streams as it is made, at 22 050 Hz. Texts are spoken one at a time, in the order asked
/// for, on a queue of their own (espeak-ng's API is process-global); ending iteration early
/// stops the synthesis within a chunk.
public struct EspeakSynthesizer: Synthesizer {
    public let name = "espeak-ng (embedded)"

    public init() {}

    /// Speaks in `voice.espeak`'s settings; a voice without them fails with `.misconfigured`.
    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        guard let settings = voice.espeak else {
            return AsyncThrowingStream {
                throw SpeechError(.misconfigured, "the voice \"\(voice.displayName)\" has no espeak-ng settings")
            }
        }
        return synthesize(text, settings: settings)
    }

    /// Speaks with an espeak-ng voice ("en-us+f2", "de"), its rate clamped to 80...450 words a
    /// minute and its pitch to 0...100.
    public func synthesize(_ text: String, settings: Voice.Espeak) -> AsyncThrowingStream<SpeechChunk, any Error> {
        let (stream, sink) = SpeechChunkSink.makeStream()
        EspeakEngine.shared.speak(text, settings: settings, into: sink)
        return stream
    }
}
