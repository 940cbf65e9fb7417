/// Word error rate: word-level edit distance between what was said and what was heard, lower
/// case and without punctuation.
struct WordErrorRate {
    var errors = 0
    var referenceWords = 0

    var rate: Double { referenceWords == 0 ? 0 : Double(errors) / Double(referenceWords) }

    mutating func add(reference: String, hypothesis: String) {
        let said = Self.words(reference), heard = Self.words(hypothesis)
        errors += Self.editDistance(said, heard)
        referenceWords += said.count
    }

    static func of(reference: String, hypothesis: String) -> Double {
        var rate = WordErrorRate()
        rate.add(reference: reference, hypothesis: hypothesis)
        return rate.rate
    }

    static func words(_ text: String) -> [String] {
        let kept = text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " }
        return String(kept).split(separator: " ").map(String.init)
    }

    /// Substitutions, deletions and insertions turning `reference` into `hypothesis`.
    static func editDistance(_ reference: [String], _ hypothesis: [String]) -> Int {
        var previous = Array(0...hypothesis.count)
        for (i, said) in reference.enumerated() {
            var current = [i + 1]
            for (j, heard) in hypothesis.enumerated() {
                current.append(min(previous[j] + (said == heard ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous[hypothesis.count]
    }
}
