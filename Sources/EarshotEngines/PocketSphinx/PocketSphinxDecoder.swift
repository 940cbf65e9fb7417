import CPocketSphinx
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owner of a pocketsphinx decoder: decodes one utterance at a time, as its audio arrives.
///
/// Not thread-safe, like pocketsphinx itself: use each decoder from one thread at a time (the
/// ``EmbeddedTranscriber`` keeps its decoder on a queue of its own).
public final class PocketSphinxDecoder {
    private let decoder: OpaquePointer
    private var lastPartial = ""
    /// Between ``beginUtterance()`` and ``endUtterance()`` or ``abandonUtterance()``.
    public private(set) var isInUtterance = false
    /// Whether the cepstral mean comes from speech (an utterance decoded to its end, or a mean
    /// handed over with ``restoreCepstralMean(_:)``) rather than pocketsphinx's initial guess.
    public private(set) var hasLearntCepstralMean = false

    /// Loads `model` (about 0.2 s and 65 MB for the US English model with its top-words
    /// dictionary; freeing the decoder gives them back). pocketsphinx's log goes to /dev/null.
    public init(model: PocketSphinxModel = .usEnglish) throws(PocketSphinxError) {
        // pocketsphinx reports a missing file only to its log (and exits on some), so look first.
        try model.checkFiles()
        guard let config = earshot_ps_config(model.acousticModel, model.languageModel, model.dictionary, "/dev/null")
        else { throw .modelRejected(model) }
        // The decoder retains the config; this drops the reference made here.
        defer { ps_config_free(config) }
        guard let decoder = PocketSphinxInitialization.makeDecoder(config) else { throw .modelRejected(model) }
        self.decoder = decoder
    }

    deinit {
        if isInUtterance { ps_end_utt(decoder) }
        ps_free(decoder)
    }

    public func beginUtterance() throws(PocketSphinxError) {
        if isInUtterance { abandonUtterance() }
        guard ps_start_utt(decoder) >= 0 else { throw .decodingFailed("start an utterance") }
        isInUtterance = true
        lastPartial = ""
    }

    /// Decodes 16 kHz mono audio; returns the running hypothesis when it has changed (never an
    /// empty one).
    public func process(_ samples: UnsafeBufferPointer<Int16>) throws(PocketSphinxError) -> String? {
        guard isInUtterance else { throw .decodingFailed("decode audio outside an utterance") }
        guard let base = samples.baseAddress, !samples.isEmpty else { return nil }
        guard ps_process_raw(decoder, base, samples.count, 0, 0) >= 0 else {
            throw .decodingFailed("decode \(samples.count) samples")
        }
        let partial = hypothesis
        guard !partial.isEmpty, partial != lastPartial else { return nil }
        lastPartial = partial
        return partial
    }

    public func process(_ samples: [Int16]) throws(PocketSphinxError) -> String? {
        try samples.withUnsafeBufferPointer { (buffer) throws(PocketSphinxError) in try process(buffer) }
    }

    /// Ends the utterance and returns its final text ("" if nothing was recognised).
    /// pocketsphinx learns the cepstral mean from it, for the utterances that follow.
    public func endUtterance() throws(PocketSphinxError) -> String {
        guard isInUtterance else { throw .decodingFailed("end an utterance that was not started") }
        isInUtterance = false
        guard ps_end_utt(decoder) >= 0 else { throw .decodingFailed("end the utterance") }
        hasLearntCepstralMean = true
        return hypothesis
    }

    /// Ends the utterance, if one is under way, and discards it.
    public func abandonUtterance() {
        guard isInUtterance else { return }
        isInUtterance = false
        ps_end_utt(decoder)
    }

    /// The cepstral mean as pocketsphinx keeps it ("c0,c1,…"), learnt from the utterances
    /// decoded so far; another decoder of the same model continues from it with
    /// ``restoreCepstralMean(_:)``.
    public var cepstralMean: String {
        ps_get_cmn(decoder, 0).map { String(cString: $0) } ?? ""
    }

    /// Continues from a mean another decoder of the same model learnt (``cepstralMean``), as if
    /// this one had heard the same utterances; or, with `learnt` false, from the initial guess
    /// this one had before it learnt any.
    public func restoreCepstralMean(_ mean: String, learnt: Bool = true) throws(PocketSphinxError) {
        guard ps_set_cmn(decoder, mean) >= 0 else { throw .decodingFailed("restore the cepstral mean \"\(mean)\"") }
        hasLearntCepstralMean = learnt
    }

    /// log10 of the probability, by the decoder's language model, that a sentence ends after
    /// `words` (its last two count); nil when the current search has no n-gram model.
    public func sentenceEnd(after words: String) -> Double? {
        let heard = words.split(separator: " ").suffix(2).map(String.init)
        guard let last = heard.last else { return nil }
        let score = heard.count == 2 ? earshot_ps_sentence_end(decoder, heard[0], last) : earshot_ps_sentence_end(decoder, nil, last)
        return score > 0 ? nil : score
    }

    /// Samples in one of pocketsphinx's frames (10 ms at 16 kHz).
    public static let samplesPerFrame = 160

    /// The frame after the last word of the current hypothesis, counted from the utterance's
    /// start; silence, noise and the sentence's end do not count as words. Nil without a word.
    public var wordsEndFrame: Int? {
        var end: Int?
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            if let word = ps_seg_word(current), !Self.isFiller(word) {
                var first: Int32 = 0, last: Int32 = 0
                ps_seg_frames(current, &first, &last)
                end = Int(last) + 1
            }
            segment = ps_seg_next(current)
        }
        return end
    }

    /// Whether pocketsphinx's `word` stands for no word said: `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++`.
    private static func isFiller(_ word: UnsafePointer<CChar>) -> Bool {
        switch UInt8(bitPattern: word.pointee) {
        case UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "+"): true
        default: false
        }
    }

    private var hypothesis: String {
        var score: Int32 = 0
        return ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
    }
}

/// Where a pocketsphinx model's three parts live.
public struct PocketSphinxModel: Sendable, Hashable {
    /// One of the files a model is made of, named as error messages name it.
    public enum Part: String, Sendable, Hashable {
        case acousticModel = "acoustic model"
        case languageModel = "language model"
        case dictionary = "pronunciation dictionary"
    }

    /// A directory of HMM files (`mdef`, `means`, ...).
    public var acousticModel: String
    /// An n-gram language model (ARPA or binary).
    public var languageModel: String
    public var dictionary: String

    public init(acousticModel: String, languageModel: String, dictionary: String) {
        self.acousticModel = acousticModel
        self.languageModel = languageModel
        self.dictionary = dictionary
    }

    /// The US English model installed with pocketsphinx (`make deps`), with the dictionary of
    /// its language model's most probable words (`Model/top_words.py`: 28 MB less than the full
    /// dictionary, no worse on vad-dev).
    public static let usEnglish: PocketSphinxModel = {
        let directory = String(cString: ps_default_modeldir()) + "/en-us"
        return PocketSphinxModel(
            acousticModel: directory + "/en-us",
            languageModel: directory + "/en-us.lm.bin",
            dictionary: directory + "/earshot-top-words.dict"
        )
    }()

    /// Throws `.modelMissing` for the first part that is missing or unreadable; loads nothing.
    public func checkFiles() throws(PocketSphinxError) {
        for part in [Part.acousticModel, .languageModel, .dictionary] {
            let path = path(of: part)
            let probe = part == .acousticModel ? path + "/mdef" : path
            guard access(probe, R_OK) == 0 else { throw .modelMissing(part, path: path) }
        }
    }

    func path(of part: Part) -> String {
        switch part {
        case .acousticModel: acousticModel
        case .languageModel: languageModel
        case .dictionary: dictionary
        }
    }
}

/// Why pocketsphinx could not start or decode, in words a person can act on.
public enum PocketSphinxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A part of the model is missing or unreadable.
    case modelMissing(PocketSphinxModel.Part, path: String)
    /// The files are there but pocketsphinx refused them (a corrupt or mismatched model).
    case modelRejected(PocketSphinxModel)
    /// A decoding call failed; says which.
    case decodingFailed(String)

    public var description: String {
        switch self {
        case let .modelMissing(part, path):
            "pocketsphinx could not load its \(part.rawValue) at \(path): run `make deps` (it installs pocketsphinx with its US English model)"
        case let .modelRejected(model):
            "pocketsphinx could not load the model at \(model.acousticModel) with \(model.languageModel) and "
                + "\(model.dictionary): the files may be damaged or not belong together; reinstall them with `make deps`"
        case let .decodingFailed(operation):
            "pocketsphinx failed to \(operation)"
        }
    }
}
