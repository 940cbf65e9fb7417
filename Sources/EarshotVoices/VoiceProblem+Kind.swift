extension VoiceProblem {
    public enum Kind: Equatable, Sendable {
        /// The file or directory could not be read.
        case unreadable(String)
        /// The file is not valid TOML; the parser's own words.
        case invalidTOML(String)
        /// A required key (`name`, `description`, `language`, an engine's `voice`) is absent.
        case missingKey
        /// A key the format does not have, probably misspelt; `known` lists the keys allowed there.
        case unknownKey(known: [String])
        /// A value of the wrong TOML type, both named with an article ("an integer", "a string").
        case wrongType(expected: String, found: String)
        /// A value outside what the engine accepts.
        case outOfRange(allowed: String, found: String)
        /// An empty string where text is needed.
        case empty
        /// None of `[flite]`, `[espeak-ng]`, `[wyoming]`: the voice could not be spoken.
        case noEngine
        /// Another file in the same directory has the same id (file names differing only in case).
        case duplicate(of: String)
    }
}
