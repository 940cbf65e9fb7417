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
