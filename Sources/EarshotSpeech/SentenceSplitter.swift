/// Cuts text into speakable pieces, so the first sentence of a long reply can play while the
/// rest is synthesized.
///
/// Pieces end at sentence ends (`.` `!` `?` `…` and the CJK `。` `！` `？`), together with any
/// closing quotes or brackets that follow, and at every line break. A period does not end a
/// sentence inside a number (3.14), after a listed abbreviation (Mr., Dr., e.g., …) or a single
/// initial, or when the next word starts with a lower-case letter (which also keeps mid-sentence
/// ellipses together). Pieces longer than `maximumLength` characters are cut at the comma,
/// semicolon, colon or dash nearest their middle. Pieces are trimmed; pieces with nothing to say
/// (empty, or punctuation only) are dropped. A number opening a line ("2. Run it") is a list
/// item's, not a sentence.
///
/// Use `split(_:)` for whole texts, or `append(_:)` and `finish()` for text that arrives piece
/// by piece: `append` returns the sentences its text completed, holding back a possible sentence
/// end until the next word shows whether it is one.
public struct SentenceSplitter: Sendable {
    /// Pieces longer than this many characters are cut in two (default 200, at least 20).
    public let maximumLength: Int

    /// Text received but not yet returned.
    var pending: [Character] = []
    /// Where scanning for the next sentence end resumes: everything before it is known to hold
    /// no sentence end.
    var scanned = 0

    public init(maximumLength: Int = 200) {
        self.maximumLength = max(maximumLength, 20)
    }

    /// The pieces of a whole text.
    public static func split(_ text: String, maximumLength: Int = 200) -> [String] {
        var splitter = SentenceSplitter(maximumLength: maximumLength)
        return splitter.append(text) + splitter.finish()
    }

    /// Adds text (any amount, even part of a word) and returns the pieces it completed.
    public mutating func append(_ text: String) -> [String] {
        pending.append(contentsOf: text)
        return takeCompleted(atEnd: false)
    }

    /// Returns what is left as the final pieces and starts over empty.
    public mutating func finish() -> [String] {
        let pieces = takeCompleted(atEnd: true)
        pending.removeAll(keepingCapacity: true)
        scanned = 0
        return pieces
    }

    private mutating func takeCompleted(atEnd: Bool) -> [String] {
        var pieces: [String] = []
        var start = 0
        var index = scanned
        while index < pending.count {
            switch boundary(at: index, pieceStart: start, atEnd: atEnd) {
            case .within(let next):
                index = next
            case .undecided:
                return finishScan(pieces: pieces, consumed: start, resumeAt: index)
            case .after(let end):
                pieces += speakablePieces(pending[start..<end])
                start = end
                index = end
            }
        }
        if atEnd {
            pieces += speakablePieces(pending[start...])
            start = pending.count
        }
        return finishScan(pieces: pieces, consumed: start, resumeAt: pending.count)
    }

    private mutating func finishScan(pieces: [String], consumed: Int, resumeAt: Int) -> [String] {
        pending.removeFirst(consumed)
        scanned = resumeAt - consumed
        return pieces
    }

    /// Trims a finished sentence, cuts it if it is too long, and drops what cannot be spoken.
    private func speakablePieces(_ characters: ArraySlice<Character>) -> [String] {
        var trimmed = characters
        while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        return Self.cutToLength(Array(trimmed), maximumLength: maximumLength)
            .filter { $0.contains(where: Self.isSpoken) }
            .map { String($0) }
    }

    private static func isSpoken(_ character: Character) -> Bool {
        !character.isPunctuation && !character.isWhitespace
    }
}
