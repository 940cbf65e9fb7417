/// The words a sentence of one language cannot end on: articles, prepositions, conjunctions,
/// auxiliaries, subject pronouns, possessives and filled pauses. A turn whose transcript so far
/// ends on one of them is unfinished ("set the oven to …"), however it sounded.
///
/// A language is data: add an entry to ``languages`` keyed by its primary subtag.
public struct TurnWords: Sendable, Equatable {
    /// Word classes, lowercase; only their union matters to the rule, the classes keep the
    /// list reviewable.
    public var classes: [String: Set<String>]

    public init(classes: [String: Set<String>]) {
        self.classes = classes
    }

    /// Every word a sentence cannot end on.
    public var unfinishedEndings: Set<String> { classes.values.reduce(into: []) { $0.formUnion($1) } }

    /// The word lists for `language` (a BCP 47 tag such as "en-US"); nil where there are none,
    /// and then the end of a turn is judged from how it sounded alone.
    public static func forLanguage(_ language: String) -> TurnWords? {
        let primary = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return languages[primary]
    }

    public static let languages: [String: TurnWords] = [
        "en": TurnWords(classes: [
            "article": ["a", "an", "the"],
            "preposition": [
                "to", "for", "with", "of", "in", "on", "at", "from", "by", "about", "into", "onto", "near",
                "than", "through", "under", "between", "without", "towards", "toward", "via", "across",
                "behind", "beside", "upon", "within", "during", "until", "till", "among", "per",
            ],
            "conjunction": ["and", "or", "but", "nor", "because", "if", "although", "whether", "unless", "while"],
            "auxiliary": ["is", "are", "was", "were", "am", "be", "been", "will", "would", "should", "could", "shall", "must", "might"],
            "subject pronoun": ["i", "we", "they", "he", "she"],
            "possessive": ["my", "your", "our", "their", "its"],
            "filled pause": ["um", "uh", "er", "erm", "uhm", "hmm", "mm"],
        ]),
    ]
}

/// What the words heard so far say of a turn's end.
public enum TurnWording: Equatable, Sendable {
    /// No words to judge: no transcriber, none of the utterance decoded so far, or speech after
    /// the last word that no word accounts for (the last word heard is not the last one said).
    case unheard
    /// The last word is one a sentence ends on.
    case complete
    /// The last word is one a sentence ends on, and the recogniser's language model finds a
    /// sentence likely to end after the last words: the words alone say finished.
    case likelyEnd
    /// The last word is one a sentence cannot end on.
    case unfinished
    /// The last word can end a sentence, but the recogniser's language model finds a sentence
    /// unlikely to end after the last words.
    case unlikelyEnd
}

/// Judges transcripts against one language's ``TurnWords``, with the union built once.
struct TurnWordRule: Sendable {
    private let unfinishedEndings: Set<String>

    /// log10 of the probability of a sentence's end below which the words are heard as
    /// unfinished. On turns-dev-2's partial transcripts a quarter-second into each pause, the
    /// last words of finished turns mostly score above -1.1 ("twenty one degrees" -0.7) and those
    /// before a pause inside a sentence below -1.3 ("turn the heating up to" -1.6, even misheard
    /// as "the two" -1.3).
    static let unlikelySentenceEnd = -1.25

    /// log10 of the probability of a sentence's end from which on words that can end one are
    /// heard as ending it. On turns-dev-2 the last words of finished turns mostly score -0.4 to
    /// -0.8 ("read my messages" -0.5); the words before a pause inside a sentence that scored above
    /// it mostly fell in pitch already, or were heard as unfinished before the silence ended.
    static let likelySentenceEnd = -0.8

    init(_ words: TurnWords) {
        unfinishedEndings = words.unfinishedEndings
    }

    /// The wording of a transcript so far: its last word, lowercased, without punctuation or a
    /// recogniser's pronunciation mark ("the(2)").
    func wording(of transcript: String, sentenceEnd: Double? = nil) -> TurnWording {
        guard let last = transcript.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).last else {
            return .unheard
        }
        var word = Substring(last.lowercased())
        if let mark = word.firstIndex(of: "(") { word = word[..<mark] }
        let letters = String(word.filter { $0.isLetter || $0 == "'" })
        guard !letters.isEmpty else { return .unheard }
        if unfinishedEndings.contains(letters) { return .unfinished }
        guard let sentenceEnd else { return .complete }
        if sentenceEnd < Self.unlikelySentenceEnd { return .unlikelyEnd }
        return sentenceEnd >= Self.likelySentenceEnd ? .likelyEnd : .complete
    }
}

