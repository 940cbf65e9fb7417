extension SentenceSplitter {
    /// Marks that end a clause when a space follows them.
    static let clauseBreaks: Set<Character> = [",", ";", ":", "—", "–"]

    /// The text waiting for its sentence to end, up to its last clause break (a comma,
    /// semicolon, colon or dash before a space), once at least `minimumLength` characters wait
    /// and the clause has at least half as many: a long first sentence from a model still
    /// writing starts playing at its first clause instead of its end. Nil when there is no such
    /// clause yet; what is taken is not returned again.
    public mutating func takeClause(minimumLength: Int) -> String? {
        guard pending.count >= minimumLength, pending.count >= 2 else { return nil }
        var cut: Int?
        for index in stride(from: pending.count - 2, through: 0, by: -1)
        where Self.clauseBreaks.contains(pending[index]) && pending[index + 1].isWhitespace {
            cut = index + 1
            break
        }
        guard let cut, cut >= minimumLength / 2 else { return nil }
        let clause = String(pending[..<cut]).trimmingWhitespace
        pending.removeFirst(cut)
        scanned = max(0, scanned - cut)
        return clause.contains(where: { $0.isLetter || $0.isNumber }) ? clause : nil
    }
}
