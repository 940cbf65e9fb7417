import CFlite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import EarshotSpeech

/// Text to speech with flite in this process: English only, a handful of built-in voices, about
/// a hundred times faster than real time.
///
/// Audio streams as it is made, sentence by sentence, at the voice's own rate (8 kHz for kal,
/// 16 kHz for the others). Texts are spoken one at a time, in the order asked for, on a queue of
/// their own; ending iteration early stops the synthesis within a chunk. A voice loads when it
/// first speaks; all are released after `unload`'s delay without speech.
public struct FliteSynthesizer: Synthesizer {
    public let name = "flite (embedded)"
    private let unload: IdleUnload

    public init(unload: IdleUnload = .never) {
        self.unload = unload
    }

    /// Speaks in `voice.flite`'s settings; a voice without them fails with `.misconfigured`.
    public func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
        FliteEngine.shared.synthesize(text, voice: voice, unload: unload)
    }

    public func synthesize(_ text: String, settings: Voice.Flite) -> AsyncThrowingStream<SpeechChunk, any Error> {
        FliteEngine.shared.synthesize(text, settings: settings, unload: unload)
    }

    /// Whether flite holds a voice now (flite is one per process, shared by every synthesizer).
    public var isLoaded: Bool { FliteEngine.shared.isLoaded }
}

/// flite itself: it keeps global state and is not thread-safe, so its one instance in the
/// process is called only through `shared`, one text at a time.
final class FliteEngine: SynthesisEngine {
    static let shared = SynthesisEngineQueue(FliteEngine())
    static let name = "flite"

    private var isInitialized = false
    /// Registered voices and the streaming hookup each keeps for its life.
    private var voices: [FliteVoice: Registered] = [:]

    private struct Registered {
        let loaded: LoadedFliteVoice
        /// Owned by the voice's features, so deleted with the voice.
        let streaming: UnsafeMutablePointer<cst_audio_streaming_info>

        var voice: UnsafeMutablePointer<cst_voice> { loaded.voice }
    }

    /// Samples per streamed chunk, at least: 64 ms at 16 kHz.
    private static let chunkSamples: Int32 = 1024

    private init() {}

    static func settings(of voice: Voice) -> Voice.Flite? { voice.flite }

    var isLoaded: Bool { !voices.isEmpty }

    func load(for settings: Voice.Flite) throws(SpeechError) {
        _ = try registered(named: settings.voice)
    }

    /// The voices go; what flite_init set up stays (0.2 MB, most of it flite's code).
    func release() {
        for registered in voices.values { registered.loaded.unload() }
        voices = [:]
    }

    func synthesize(_ text: String, settings: Voice.Flite, into sink: SpeechChunkSink) throws(SpeechError) {
        guard settings.durationStretch.isFinite, settings.durationStretch > 0,
              settings.pitchHz.isFinite, settings.pitchHz > 0
        else {
            throw SpeechError(
                .misconfigured,
                "flite needs a positive duration stretch and pitch, not \(settings.durationStretch) and \(settings.pitchHz) Hz"
            )
        }
        let registered = try registered(named: settings.voice)
        earshot_flite_set_prosody(registered.voice, Float(settings.durationStretch), Float(settings.pitchHz))
        // flite's voices draw their excitation noise from the C library's rand(): seeded the
        // same for every text, a text sounds the same however many were spoken before it, so
        // replays stay byte-identical when several run in one process.
        srand(1)
        // One sentence at a time, so the first is heard before the rest is analysed.
        for sentence in SentenceSplitter.split(text) {
            guard !sink.isStopped else { return }
            withExtendedLifetime(sink) {
                registered.streaming.pointee.userdata = Unmanaged.passUnretained(sink).toOpaque()
                defer { registered.streaming.pointee.userdata = nil }
                if let utterance = flite_synth_text(sentence, registered.voice) { delete_utterance(utterance) }
            }
        }
    }

    private func registered(named name: String) throws(SpeechError) -> Registered {
        guard let voice = FliteVoice(rawValue: name.lowercased()) else {
            let known = FliteVoice.allCases.map(\.rawValue).joined(separator: ", ")
            throw SpeechError(.rejected, "flite has no voice \"\(name)\": choose one of \(known)")
        }
        if let registered = voices[voice] { return registered }
        if !isInitialized {
            flite_init()
            isInitialized = true
        }
        let loaded = try voice.load()
        guard let streaming = new_audio_streaming_info() else {
            loaded.unload()
            throw SpeechError(.misconfigured, "flite could not load its voice \"\(name)\": out of memory")
        }
        streaming.pointee.min_buffsize = Self.chunkSamples
        streaming.pointee.asc = { wave, start, size, _, info in
            guard let wave, let samples = wave.pointee.samples, let userdata = info?.pointee.userdata else {
                return CST_AUDIO_STREAM_STOP
            }
            let sink = Unmanaged<SpeechChunkSink>.fromOpaque(userdata).takeUnretainedValue()
            let chunk = UnsafeBufferPointer(start: samples + Int(start), count: Int(size))
            return sink.yield(chunk, sampleRate: Int(wave.pointee.sample_rate)) ? CST_AUDIO_STREAM_CONT : CST_AUDIO_STREAM_STOP
        }
        earshot_flite_set_streaming(loaded.voice, streaming)
        let registered = Registered(loaded: loaded, streaming: streaming)
        voices[voice] = registered
        return registered
    }
}
