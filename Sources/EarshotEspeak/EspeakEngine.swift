import CEspeak
import Dispatch
import EarshotSpeech

/// The one owner of espeak-ng in the process: its API is process-global (one voice, one set of
/// parameters, one callback), so every call into it runs on this engine's serial queue, one text
/// at a time.
final class EspeakEngine: @unchecked Sendable {
    // @unchecked: espeak-ng itself and `sampleRate` are touched only on `queue`.
    static let shared = EspeakEngine()

    private let queue = DispatchQueue(label: "earshot.espeak-ng", qos: .userInitiated)
    /// Set once espeak-ng is initialised.
    private var sampleRate: Int?

    private init() {}

    /// Speaks `text` into `sink` after the texts queued before it, then finishes the sink.
    func speak(_ text: String, settings: Voice.Espeak, into sink: SpeechChunkSink) {
        queue.async {
            do throws(SpeechError) {
                try self.synthesize(text, settings: settings, into: sink)
                sink.finish()
            } catch {
                sink.finish(throwing: error)
            }
        }
    }

    private func synthesize(_ text: String, settings: Voice.Espeak, into sink: SpeechChunkSink) throws(SpeechError) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !sink.isStopped else { return }
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
