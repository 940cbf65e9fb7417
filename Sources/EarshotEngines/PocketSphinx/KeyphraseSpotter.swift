import CPocketSphinx
import EarshotAudio
public import EarshotSpeech
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Spots the wake phrase with pocketsphinx's keyphrase search: the phrase's phones against a
/// garbage loop, with `kws_threshold` as the bar. Each stretch of speech is an utterance of its own.
///
/// Both passes hear the stretch with the room's steady noise taken out (``NoiseSuppressor``,
/// against the noise of the detector's lead-in to the stretch): pocketsphinx's acoustic model
/// knows clean speech, and its own noise removal, which learns the noise over seconds of audio
/// it decodes, is off.
///
/// Two passes: the stretch is decoded as it comes (pocketsphinx's running cepstral mean, which
/// settles only after a second or so of speech and so misses most phrases said in noise), and,
/// when it ends unheard, once more whole, with the mean of the whole stretch; that mean is where
/// the next stretch's running one starts.
///
/// Not thread-safe, like pocketsphinx: use it from one queue.
public final class KeyphraseSpotter: WakePhraseSpotter {
    public let phrase: String
    private let streaming: OpaquePointer
    private let closing: OpaquePointer
    private var inUtterance = false
    /// The stretch's audio so far, for the closing pass (its last ``closingPassSamples``).
    private var stretch: [Int16] = []
    private var suppressor = NoiseSuppressor()
    /// The suppressor's output for the samples in hand.
    private var cleaned: [Int16] = []

    /// The bar the daemon uses unless `[wake] kws_threshold` says otherwise (tuned on the
    /// benchmark's tuning voices, `earshot-bench wake --tune`: the most woken with no false wake on the dev sets).
    public static let defaultThreshold = 1e-30
    /// kws_plp, the cost of each phone of the garbage loop the phrase competes with (pocketsphinx's
    /// default 0.1): a smaller one lifts the phrase said in noise more than other speech
    /// (`earshot-bench wake --tune` on the tuning voices: 33 of 48 woken with no false wake, 30 with 1e-2).
    static let phoneLoopProbability = 1e-3

    /// The closing pass looks at the last 10 s of a stretch: a phrase said before then has
    /// long been followed by other speech.
    static let closingPassSamples = 10 * 16_000
    /// A stretch at least this long (1 s) gives the next one its starting mean.
    static let seedingSamples = 16_000

    /// Loads the acoustic model twice (about 0.4 s) and the phrase's pronunciations.
    public init(
        _ pronounced: PronouncedWakePhrase, threshold: Double = defaultThreshold, model: PocketSphinxModel = .usEnglish
    ) throws(SpeechError) {
        do {
            try model.checkFiles()
        } catch {
            throw SpeechError(.misconfigured, error.description)
        }
        guard threshold > 0, threshold < 1 else {
            throw SpeechError(.misconfigured, "kws_threshold must be between 0 and 1, such as 1e-35 (got \(threshold))")
        }
        phrase = pronounced.phrase.description
        streaming = try Self.decoder(spotting: pronounced, threshold: threshold, cmn: "live", model: model)
        do {
            closing = try Self.decoder(spotting: pronounced, threshold: threshold, cmn: "batch", model: model)
        } catch {
            ps_free(streaming)
            throw error
        }
        stretch.reserveCapacity(Self.closingPassSamples)
        cleaned.reserveCapacity(NoiseSuppressor.estimateFrames * AudioFrame.sampleCount + Self.seedingSamples)
    }

    /// A decoder spotting the phrase, with the transcriber's dictionary and the phrase's words
    /// added where it lacks them.
    private static func decoder(
        spotting pronounced: PronouncedWakePhrase, threshold: Double, cmn: String, model: PocketSphinxModel
    ) throws(SpeechError) -> OpaquePointer {
        guard let config = earshot_ps_keyphrase_config(model.acousticModel, model.dictionary, threshold, cmn, "/dev/null") else {
            throw SpeechError(.misconfigured, PocketSphinxError.modelRejected(model).description)
        }
        defer { ps_config_free(config) }
        ps_config_set_float(config, "kws_plp", phoneLoopProbability)
        guard let decoder = PocketSphinxInitialization.makeDecoder(config) else { throw SpeechError(.misconfigured, PocketSphinxError.modelRejected(model).description) }
        // The model's feat.params turns noise removal on over the config: turned off here.
        ps_config_set_bool(ps_get_config(decoder), "remove_noise", 0)
        guard ps_reinit_feat(decoder, nil) >= 0 else {
            ps_free(decoder)
            throw SpeechError(.misconfigured, PocketSphinxError.modelRejected(model).description)
        }
        let phrase = pronounced.phrase.description
        do throws(SpeechError) {
            for (word, phones) in zip(pronounced.phrase.words, pronounced.pronunciations) {
                if let known = ps_lookup_word(decoder, word) {
                    free(known)
                    continue
                }
                guard ps_add_word(decoder, word, phones, 1) >= 0 else {
                    throw SpeechError(.misconfigured, "pocketsphinx refused the pronunciation \"\(phones)\" of \"\(word)\"")
                }
            }
            guard ps_add_keyphrase(decoder, "wake", phrase) == 0, ps_activate_search(decoder, "wake") == 0 else {
                throw SpeechError(.misconfigured, "pocketsphinx could not spot \"\(phrase)\"")
            }
        } catch {
            ps_free(decoder)
            throw error
        }
        return decoder
    }

    deinit {
        if inUtterance { ps_end_utt(streaming) }
        ps_free(streaming)
        ps_free(closing)
    }

    public func beginSpeech() throws(SpeechError) {
        if inUtterance { ps_end_utt(streaming) }
        stretch.removeAll(keepingCapacity: true)
        suppressor.begin()
        guard ps_start_utt(streaming) >= 0 else { throw SpeechError(.rejected, "pocketsphinx could not start listening for the wake phrase") }
        inUtterance = true
    }

    public func hears(_ samples: [Int16]) throws(SpeechError) -> Bool {
        guard inUtterance, !samples.isEmpty else { return false }
        cleaned.removeAll(keepingCapacity: true)
        samples.withUnsafeBufferPointer { suppressor.process($0, into: &cleaned) }
        guard !cleaned.isEmpty else { return false }
        keep(cleaned)
        let processed = cleaned.withUnsafeBufferPointer { ps_process_raw(streaming, $0.baseAddress, $0.count, 0, 0) }
        guard processed >= 0 else { throw SpeechError(.rejected, "pocketsphinx failed to decode audio for the wake phrase") }
        var score: Int32 = 0
        guard ps_get_hyp(streaming, &score) != nil else { return false }
        // Heard: the stretch is over for the spotter (the next begins afresh).
        endSpeech()
        return true
    }

    public func endSpeech() {
        guard inUtterance else { return }
        inUtterance = false
        ps_end_utt(streaming)
        stretch.removeAll(keepingCapacity: true)
    }

    public func closeSpeech() throws(SpeechError) -> Bool {
        guard inUtterance else { return false }
        inUtterance = false
        ps_end_utt(streaming)
        var score: Int32 = 0
        if ps_get_hyp(streaming, &score) != nil {
            stretch.removeAll(keepingCapacity: true)
            return true
        }
        defer { stretch.removeAll(keepingCapacity: true) }
        guard !stretch.isEmpty else { return false }
        guard ps_start_utt(closing) >= 0 else { throw SpeechError(.rejected, "pocketsphinx could not start listening for the wake phrase") }
        let processed = stretch.withUnsafeBufferPointer { ps_process_raw(closing, $0.baseAddress, $0.count, 0, 1) }
        ps_end_utt(closing)
        guard processed >= 0 else { throw SpeechError(.rejected, "pocketsphinx failed to decode audio for the wake phrase") }
        // The next stretch is decoded as it comes from this one's mean (the room's noise, if it
        // lasts), unless the stretch was too short to tell or held no sound at all (no mean).
        if stretch.count >= Self.seedingSamples, let repr = ps_get_cmn(closing, 0) {
            let mean = String(cString: repr)
            if !mean.contains("nan") { ps_set_cmn(streaming, mean) }
        }
        return ps_get_hyp(closing, &score) != nil
    }

    /// Keeps the stretch's last ``closingPassSamples`` or so (a second more is dropped at once,
    /// so a long stretch is not moved at every frame).
    private func keep(_ samples: [Int16]) {
        let excess = stretch.count + samples.count - Self.closingPassSamples
        if excess > 0 { stretch.removeFirst(min(excess + 16_000, stretch.count)) }
        stretch.append(contentsOf: samples.suffix(Self.closingPassSamples))
    }
}
