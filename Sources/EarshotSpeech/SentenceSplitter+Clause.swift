extension SentenceSplitter {
    /// Marks that end a clause when a space follows them.
    static let clauseBreaks: Set<Character> = [",", ";", ":", "—", "–"]

    /// The text waiting for its sentence to end, up to its last clause break (a comma,
    /// semicolon, colon or dash before a space, or last after a word), once at least
    /// `minimumLength` characters wait and the clause has at least half as many: a long first
    /// sentence from a model still writing starts playing at its first clause instead of its end.
    /// Nil when there is no such clause yet; what is taken is not returned again.
    public mutating func takeClause(minimumLength: Int) -> String? {
        guard pending.count >= minimumLength, pending.count >= 2 else { return nil }
        var cut: Int?
        for index in stride(from: pending.count - 1, through: 0, by: -1)
        where Self.clauseBreaks.contains(pending[index]) && endsClause(at: index) {
            cut = index + 1
            break
        }
        guard let cut, cut >= minimumLength / 2 else { return nil }
        let clause = String(pending[..<cut]).trimmingWhitespace
        pending.removeFirst(cut)
        scanned = max(0, scanned - cut)
        return clause.contains(where: { $0.isLetter || $0.isNumber }) ? clause : nil
    }

    /// Whether the mark at `index` ends a clause: a space follows it, or it is the last character
    /// so far and follows a word ("Sure," as the model's first token: the space would come a token
    /// later; after a digit it may be a thousands separator still being written).
    private func endsClause(at index: Int) -> Bool {
        if index + 1 < pending.count { return pending[index + 1].isWhitespace }
        return index > 0 && pending[index - 1].isLetter
    }
}
