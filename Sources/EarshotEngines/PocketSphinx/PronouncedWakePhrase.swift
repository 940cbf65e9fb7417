public import EarshotSpeech
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A wake phrase with the pronunciation of each word, from pocketsphinx's full US English
/// dictionary (the transcriber's own holds only its language model's words).
public struct PronouncedWakePhrase: Sendable, Hashable {
    public let phrase: WakePhrase
    /// Each word's phones ("HH EY"), in the phrase's order.
    public let pronunciations: [String]

    /// The full dictionary installed with the model (134 000 words).
    public static var fullDictionary: String {
        let transcriber = PocketSphinxModel.usEnglish.dictionary
        let directory = transcriber.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/cmudict-en-us.dict"
    }

    /// Looks each word of `phrase` up in `dictionary`; throws, in words, naming the words it
    /// lacks (pocketsphinx cannot spot a word it cannot pronounce) or a dictionary it cannot read.
    public init(_ phrase: WakePhrase, dictionary: String = fullDictionary) throws(SpeechError) {
        guard let file = fopen(dictionary, "r") else {
            throw SpeechError(.misconfigured, "pocketsphinx's pronunciation dictionary \(dictionary) cannot be read: "
                + "\(String(cString: strerror(errno))); run `make deps` (it installs pocketsphinx with its US English model)")
        }
        defer { fclose(file) }
        var found: [String: String] = [:]
        let wanted = Set(phrase.words)
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            // "word PHONES" or "word(2) PHONES": the first pronunciation of each word is kept.
            guard let space = text.firstIndex(of: " ") else { continue }
            let word = String(text[..<space])
            guard wanted.contains(word), found[word] == nil else { continue }
            found[word] = text[text.index(after: space)...].trimmed(of: " \n\r\t")
        }
        let missing = phrase.words.filter { found[$0] == nil }
        guard missing.isEmpty else {
            let named = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            throw SpeechError(.misconfigured, "the wake phrase \"\(phrase)\" has \(named), which pocketsphinx's US English "
                + "dictionary cannot pronounce: choose common English words (a name can often be written as words that sound like it)")
        }
        self.phrase = phrase
        pronunciations = phrase.words.map { found[$0]! }
    }
}

extension StringProtocol {
    fileprivate func trimmed(of characters: String) -> String {
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
