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
