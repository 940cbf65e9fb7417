/// Which words of a reply were played, by audio time: each sentence is placed on the reply's
/// sample count where its audio was queued, and the count the speaker has played says how far
/// the person heard. Within a sentence cut short, words are taken in proportion to the audio
/// played (speech runs at a roughly even rate of words), as OpenAI's Realtime API truncates a
/// reply talked over.
public struct PlayedText: Equatable, Sendable {
    struct Sentence: Equatable, Sendable {
        var text: String
        var start: Int
        var end: Int
    }

    private var sentences: [Sentence] = []

    public init() {}

    /// `text`'s audio starts at sample `start` of the reply and, so far, ends at `end`.
    public mutating func add(_ text: String, start: Int, end: Int) {
        sentences.append(Sentence(text: text, start: start, end: max(start, end)))
    }

    /// More audio of the last sentence was queued: it now ends at `end`.
    public mutating func extendLast(to end: Int) {
        guard let last = sentences.indices.last else { return }
        sentences[last].end = max(sentences[last].end, end)
    }

    /// Everything queued: what was heard of a reply played to its end.
    public var all: String {
        sentences.map(\.text).joined(separator: " ")
    }

    /// What was heard once `played` samples of the reply have been played: the sentences played
    /// in full, then the share of the next one's words its played audio stands for.
    public func heard(upTo played: Int) -> String {
        var heard: [String] = []
        for sentence in sentences {
            if sentence.end <= played {
                heard.append(sentence.text)
                continue
            }
            if played > sentence.start {
                let words = sentence.text.split(whereSeparator: \.isWhitespace)
                let share = Double(played - sentence.start) / Double(sentence.end - sentence.start)
                let count = Int((Double(words.count) * share).rounded(.down))
                if count > 0 { heard.append(words.prefix(count).joined(separator: " ")) }
            }
            break
        }
        return heard.joined(separator: " ")
    }
}
