/// Listens for one phrase in stretches of speech, as the pipeline hands them out while voice
/// mode waits for its wake phrase. Not thread-safe: use it from one thread or queue at a time.
public protocol WakePhraseSpotter: AnyObject {
    /// The phrase it listens for, as configured.
    var phrase: String { get }
    /// A new stretch of speech begins; the previous one, if any, is forgotten.
    func beginSpeech() throws(SpeechError)
    /// Decodes the next 16 kHz mono samples of the stretch; true when the phrase has just been
    /// heard, ending with them.
    func hears(_ samples: [Int16]) throws(SpeechError) -> Bool
    /// The stretch ended; it is forgotten.
    func endSpeech()
    /// The stretch ended as speech does: true when a closer look at the whole stretch hears the
    /// phrase that ``hears(_:)`` missed (slower: decided only now).
    func closeSpeech() throws(SpeechError) -> Bool
}

/// A wake phrase as spotters take it: lower-case words of letters and apostrophes.
public struct WakePhrase: Hashable, Sendable, CustomStringConvertible {
    /// The words, lower-cased, in order.
    public let words: [String]

    /// Reads `text` ("Hey Computer"); throws, in words, for an empty phrase or one with other
    /// characters than letters, apostrophes, hyphens and spaces.
    public init(_ text: String) throws(SpeechError) {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "-" }).map(String.init)
        guard !words.isEmpty else {
            throw SpeechError(.misconfigured, "the wake phrase is empty: give the words that wake Earshot, such as \"hey computer\"")
        }
        for word in words where !word.allSatisfy({ ($0.isLetter && $0.isASCII) || $0 == "'" }) {
            throw SpeechError(.misconfigured, "the wake phrase \"\(text)\" has \"\(word)\", which is not an English word: "
                + "write the phrase in plain letters, as it is said (\"hey computer\", not digits or symbols)")
        }
        self.words = words
    }

    /// The words joined by single spaces.
    public var description: String { words.joined(separator: " ") }
}
