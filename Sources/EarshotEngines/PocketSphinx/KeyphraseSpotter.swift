import CPocketSphinx
public import EarshotSpeech
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Spots the wake phrase with pocketsphinx's keyphrase search: the phrase's phones against a
/// garbage loop, with `kws_threshold` as the bar. Each stretch of speech is an utterance of its own.
///
/// Not thread-safe, like pocketsphinx: use it from one queue.
public final class KeyphraseSpotter: WakePhraseSpotter {
    public let phrase: String
    private let decoder: OpaquePointer
    private var inUtterance = false

    /// The bar the daemon uses unless `[wake] kws_threshold` says otherwise (tuned on the
    /// benchmark's tuning voices, `earshot-bench wake --tune`: the most woken with no false wake on the dev sets).
    public static let defaultThreshold = 1e-35

    /// Loads the acoustic model (about 0.2 s) and the phrase's pronunciations.
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
        // The transcriber's dictionary, with the phrase's words added where it lacks them.
        guard let config = earshot_ps_keyphrase_config(model.acousticModel, model.dictionary, threshold, "/dev/null") else {
            throw SpeechError(.misconfigured, PocketSphinxError.modelRejected(model).description)
        }
        defer { ps_config_free(config) }
        guard let decoder = ps_init(config) else { throw SpeechError(.misconfigured, PocketSphinxError.modelRejected(model).description) }
        self.decoder = decoder
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
    }

    deinit {
        if inUtterance { ps_end_utt(decoder) }
        ps_free(decoder)
    }

    public func beginSpeech() throws(SpeechError) {
        if inUtterance { ps_end_utt(decoder) }
        guard ps_start_utt(decoder) >= 0 else { throw SpeechError(.rejected, "pocketsphinx could not start listening for the wake phrase") }
        inUtterance = true
    }

    public func hears(_ samples: [Int16]) throws(SpeechError) -> Bool {
        guard inUtterance, !samples.isEmpty else { return false }
        let processed = samples.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 0) }
        guard processed >= 0 else { throw SpeechError(.rejected, "pocketsphinx failed to decode audio for the wake phrase") }
        var score: Int32 = 0
        guard ps_get_hyp(decoder, &score) != nil else { return false }
        // Heard: the stretch is over for the spotter (the next begins afresh).
        endSpeech()
        return true
    }

    public func endSpeech() {
        guard inUtterance else { return }
        inUtterance = false
        ps_end_utt(decoder)
    }
}
