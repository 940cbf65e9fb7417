/// Language tags as the voices and the configuration file give them (BCP 47, checked loosely).
public enum LanguageTag {
    /// A 2–3 letter language, then 1–8 character alphanumeric subtags: `en`, `en-US`, `pt-BR`.
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
