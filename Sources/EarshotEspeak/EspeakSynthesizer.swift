import CEspeak
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
        EspeakEngine.shared.synthesize(text, voice: voice)
    }

    /// Speaks with an espeak-ng voice ("en-us+f2", "de"), its rate clamped to 80...450 words a
    /// minute and its pitch to 0...100.
    public func synthesize(_ text: String, settings: Voice.Espeak) -> AsyncThrowingStream<SpeechChunk, any Error> {
        EspeakEngine.shared.synthesize(text, settings: settings)
    }
}

/// espeak-ng itself: its API is process-global (one voice, one set of parameters, one
/// callback), so its one instance in the process is called only through `shared`, one text at
/// a time.
final class EspeakEngine: SynthesisEngine {
    static let shared = SynthesisEngineQueue(EspeakEngine())
    static let name = "espeak-ng"

    /// Set once espeak-ng is initialised.
    private var sampleRate: Int?

    private init() {}

    static func settings(of voice: Voice) -> Voice.Espeak? { voice.espeak }

    func synthesize(_ text: String, settings: Voice.Espeak, into sink: SpeechChunkSink) throws(SpeechError) {
        let sampleRate = try initialized()
        switch espeak_SetVoiceByName(settings.voice) {
        case EE_OK: break
        case EE_NOT_FOUND: throw SpeechError(.rejected, "espeak-ng has no voice \"\(settings.voice)\"")
        default: throw SpeechError(.rejected, "espeak-ng could not switch to the voice \"\(settings.voice)\"")
        }
        espeak_SetParameter(espeakRATE, Int32(settings.rate.clamped(to: 80...450)), 0)
        espeak_SetParameter(espeakPITCH, Int32(settings.pitch.clamped(to: 0...100)), 0)
        let request = EspeakRequest(sink: sink, sampleRate: sampleRate)
        let status = withExtendedLifetime(request) {
            espeak_Synth(
                text, text.utf8.count + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil,
                Unmanaged.passUnretained(request).toOpaque()
            )
        }
        guard status == EE_OK || sink.isStopped else {
            throw SpeechError(.rejected, "espeak-ng could not synthesize the text (error \(status.rawValue))")
        }
    }

    private func initialized() throws(SpeechError) -> Int {
        if let sampleRate { return sampleRate }
        // DONT_EXIT: without its data espeak-ng would otherwise end the process.
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, espeakINITIALIZE_DONT_EXIT)
        guard rate > 0 else {
            throw SpeechError(.misconfigured, "espeak-ng could not start: install espeak-ng-data")
        }
        espeak_SetSynthCallback { samples, count, events in
            guard let userdata = events?.pointee.user_data else { return 1 }
            let request = Unmanaged<EspeakRequest>.fromOpaque(userdata).takeUnretainedValue()
            // No samples: synthesis is over.
            guard let samples else { return 0 }
            let chunk = UnsafeBufferPointer(start: samples, count: Int(max(count, 0)))
            return request.sink.yield(chunk, sampleRate: request.sampleRate) ? 0 : 1
        }
        sampleRate = Int(rate)
        return Int(rate)
    }
}

/// What the synthesis callback needs to know about the text being spoken.
private final class EspeakRequest {
    let sink: SpeechChunkSink
    let sampleRate: Int

    init(sink: SpeechChunkSink, sampleRate: Int) {
        self.sink = sink
        self.sampleRate = sampleRate
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
