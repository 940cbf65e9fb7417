import CEspeak
public import EarshotSpeech

/// Text to speech with espeak-ng in this process: over a hundred languages, robotic but clear,
/// about a thousand times faster than real time.
///
/// Audio streams as it is made, at 22 050 Hz. Texts are spoken one at a time, in the order asked
/// for, on a queue of their own (espeak-ng's API is process-global); ending iteration early
/// stops the synthesis within a chunk. espeak-ng loads at the first text and is released after
/// `unload`'s delay without one.
public struct EspeakSynthesizer: Synthesizer {
    public let name = "espeak-ng (embedded)"
    private let unload: IdleUnload

    public init(unload: IdleUnload = .never) {
        self.unload = unload
    }

    /// Speaks in `voice.espeak`'s settings; a voice without them fails with `.misconfigured`.
    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        EspeakEngine.shared.synthesize(text, voice: voice, unload: unload)
    }

    /// Speaks with an espeak-ng voice ("en-us+f2", "de"), its rate clamped to 80...450 words a
    /// minute and its pitch to 0...100.
    public func synthesize(_ text: String, settings: Voice.Espeak) -> AsyncThrowingStream<SpeechChunk, any Error> {
        EspeakEngine.shared.synthesize(text, settings: settings, unload: unload)
    }

    /// Whether espeak-ng is loaded now (it is one per process, shared by every synthesizer).
    public var isLoaded: Bool { EspeakEngine.shared.isLoaded }
}

/// espeak-ng itself: its API is process-global (one voice, one set of parameters, one
/// callback), so its one instance in the process is called only through `shared`, one text at
/// a time.
final class EspeakEngine: SynthesisEngine {
    static let shared = SynthesisEngineQueue(EspeakEngine())
    static let name = "espeak-ng"

    /// The library and its output rate, while espeak-ng is initialised.
    private var loaded: (library: EspeakLibrary, sampleRate: Int)?

    private init() {}

    static func settings(of voice: Voice) -> Voice.Espeak? { voice.espeak }

    var isLoaded: Bool { loaded != nil }

    func load(for settings: Voice.Espeak) throws(SpeechError) {
        guard loaded == nil else { return }
        let library = try EspeakLibrary()
        // DONT_EXIT: without its data espeak-ng would otherwise end the process.
        let rate = library.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, espeakINITIALIZE_DONT_EXIT)
        guard rate > 0 else {
            library.close()
            throw SpeechError(.misconfigured, "espeak-ng could not start: install espeak-ng-data")
        }
        library.setSynthCallback { samples, count, events in
            guard let userdata = events?.pointee.user_data else { return 1 }
            let request = Unmanaged<EspeakRequest>.fromOpaque(userdata).takeUnretainedValue()
            // No samples: synthesis is over.
            guard let samples else { return 0 }
            let chunk = UnsafeBufferPointer(start: samples, count: Int(max(count, 0)))
            return request.sink.yield(chunk, sampleRate: request.sampleRate) ? 0 : 1
        }
        loaded = (library, Int(rate))
    }

    /// espeak-ng 1.51 frees nearly all it allocated: a few kilobytes stay behind per release,
    /// and the dictionary of a second language (about 180 KB for English) when a text switched
    /// language for some words, such as English words in German.
    func release() {
        guard let (library, _) = loaded else { return }
        _ = library.terminate()
        library.close()
        loaded = nil
    }

    func synthesize(_ text: String, settings: Voice.Espeak, into sink: SpeechChunkSink) throws(SpeechError) {
        guard let (library, sampleRate) = loaded else { throw SpeechError(.misconfigured, "espeak-ng is not loaded") }
        switch library.setVoiceByName(settings.voice) {
        case EE_OK: break
        case EE_NOT_FOUND: throw SpeechError(.rejected, "espeak-ng has no voice \"\(settings.voice)\"")
        default: throw SpeechError(.rejected, "espeak-ng could not switch to the voice \"\(settings.voice)\"")
        }
        _ = library.setParameter(espeakRATE, Int32(settings.rate.clamped(to: 80...450)), 0)
        _ = library.setParameter(espeakPITCH, Int32(settings.pitch.clamped(to: 0...100)), 0)
        let request = EspeakRequest(sink: sink, sampleRate: sampleRate)
        let status = withExtendedLifetime(request) {
            library.synth(
                text, text.utf8.count + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil,
                Unmanaged.passUnretained(request).toOpaque()
            )
        }
        guard status == EE_OK || sink.isStopped else {
            throw SpeechError(.rejected, "espeak-ng could not synthesize the text (error \(status.rawValue))")
        }
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
