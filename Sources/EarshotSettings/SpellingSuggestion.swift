/// "Did you mean …?": the known name closest to a misspelt one, if any is close enough.
enum SpellingSuggestion {
    /// The candidate within a third of the name's length in edits (at least one edit), or one
    /// that starts with the name or it with them; case, `-` and `_` do not count.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let wanted = normalized(name)
        guard !wanted.isEmpty else { return nil }
        let allowed = max(1, wanted.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let known = normalized(candidate)
            var distance = editDistance(wanted, known)
            if wanted.count >= 3, known.starts(with: wanted) || wanted.starts(with: known) { distance = min(distance, allowed) }
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    private static func normalized(_ name: String) -> [Character] {
        Array(name.lowercased().map { $0 == "-" ? "_" : $0 })
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = min(previous[j] + 1, row[j - 1] + 1, substitution)
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
