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

extension SentenceSplitter {
    /// What the scan found at one position of the pending text.
    enum Boundary: Equatable {
        /// No sentence ends here; scanning continues at `next`.
        case within(next: Int)
        /// A sentence ends before `end`.
        case after(end: Int)
        /// A sentence may end here, but only text still to come can tell.
        case undecided
    }
}

extension SentenceSplitter {
    /// Abbreviations that are followed by a capitalized word mid-sentence ("Dr. Smith",
    /// "e.g. Paris"). Ones that often end sentences ("etc.", "a.m.") are left out: before a
    /// capital they end the sentence, before a lower-case word the general rule keeps them.
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e", "cf", "approx", "fig",
    ]

    /// Terminators that end a sentence without a following space.
    static let cjkTerminators: Set<Character> = ["。", "！", "？", "｡"]
    static let terminators: Set<Character> = cjkTerminators.union([".", "!", "?", "…", "‼", "⁇", "⁈", "⁉"])
    /// Closing quotes and brackets (and markdown emphasis) that stay with the sentence they end.
    static let closers: Set<Character> = [
        "\"", "'", "”", "’", "»", "›", ")", "]", "}", "*",
        "」", "』", "）", "】", "〕", "〉", "》", "］", "｝",
    ]

    /// Whether a sentence ends at `index` of the pending text, in the piece that began at
    /// `pieceStart`.
    func boundary(at index: Int, pieceStart: Int, atEnd: Bool) -> Boundary {
        let count = pending.count
        let character = pending[index]
        if character.isNewline { return .after(end: index + 1) }
        guard Self.terminators.contains(character) else { return .within(next: index + 1) }

        var runEnd = index
        var isCJK = false
        while runEnd < count, Self.terminators.contains(pending[runEnd]) {
            isCJK = isCJK || Self.cjkTerminators.contains(pending[runEnd])
            runEnd += 1
        }
        var closed = runEnd
        while closed < count, Self.closers.contains(pending[closed]) { closed += 1 }
        if closed == count { return atEnd ? .after(end: count) : .undecided }
        if isCJK { return .after(end: closed) }
        // "3.14", "example.com", "?!x": a terminator glued to what follows ends nothing.
        guard pending[closed].isWhitespace else { return .within(next: runEnd) }

        var next = closed
        while next < count, pending[next].isWhitespace {
            if pending[next].isNewline { return .after(end: closed) }
            next += 1
        }
        if next == count { return atEnd ? .after(end: closed) : .undecided }
        if pending[next].isLowercase { return .within(next: runEnd) }
        if runEnd - index == 1, character == ".",
           isAbbreviation(endingAt: index) || isListNumber(endingAt: index, pieceStart: pieceStart) {
            return .within(next: runEnd)
        }
        return .after(end: closed)
    }

    /// Whether the period at `index` ends a number that opens the piece, as in "2. Run it".
    private func isListNumber(endingAt index: Int, pieceStart: Int) -> Bool {
        var start = index
        while start > pieceStart, pending[start - 1].isWholeNumber { start -= 1 }
        guard start < index else { return false }
        return pending[pieceStart..<start].allSatisfy(\.isWhitespace)
    }

    /// Whether the word before the period at `index` is a listed abbreviation or an initial.
    private func isAbbreviation(endingAt index: Int) -> Bool {
        var start = index
        while start > 0, pending[start - 1].isLetter || pending[start - 1] == "." { start -= 1 }
        let word = String(pending[start..<index])
        if word.count == 1, let letter = word.first, letter.isUppercase { return true }
        return Self.abbreviations.contains(word.lowercased())
    }
}

extension SentenceSplitter {
    /// Marks after which a long sentence may be cut when a space follows them.
    private static let spacedBreaks: Set<Character> = [",", ";", ":", "—", "–", "-"]
    /// Marks after which it may be cut anywhere (CJK punctuation takes no space).
    private static let unspacedBreaks: Set<Character> = ["，", "、", "；", "：", "—", "–"]

    /// Cuts `sentence` in two at the break nearest its middle, and again until every piece fits
    /// in `maximumLength` characters; without a punctuation break it cuts at the middle-most
    /// space, and a run with neither is left whole.
    static func cutToLength(_ sentence: [Character], maximumLength: Int) -> [[Character]] {
        guard sentence.count > maximumLength else { return [sentence] }
        guard let cut = cutPosition(in: sentence) else { return [sentence] }
        let head = trimmed(sentence[..<cut]), tail = trimmed(sentence[cut...])
        guard !head.isEmpty, !tail.isEmpty else { return [sentence] }
        return cutToLength(head, maximumLength: maximumLength) + cutToLength(tail, maximumLength: maximumLength)
    }

    private static func cutPosition(in sentence: [Character]) -> Int? {
        let middle = sentence.count / 2
        var best: Int?
        var bestSpace: Int?
        for index in 1..<(sentence.count - 1) {
            let character = sentence[index]
            let followedBySpace = sentence[index + 1].isWhitespace
            // A hyphen is only a dash with spaces on both sides ("well - no"), not in "well-known".
            let isBreak = character == "-"
                ? followedBySpace && sentence[index - 1].isWhitespace
                : unspacedBreaks.contains(character) || (followedBySpace && spacedBreaks.contains(character))
            if isBreak, best.map({ abs(index + 1 - middle) < abs($0 - middle) }) ?? true {
                best = index + 1
            }
            if character.isWhitespace, bestSpace.map({ abs(index - middle) < abs($0 - middle) }) ?? true {
                bestSpace = index
            }
        }
        return best ?? bestSpace
    }

    private static func trimmed(_ characters: ArraySlice<Character>) -> [Character] {
        var slice = characters
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return Array(slice)
    }
}
