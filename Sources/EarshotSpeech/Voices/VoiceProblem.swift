/// One thing wrong with a voice file or directory, worded for the person who edits it.
///
/// `description` reads like a compiler diagnostic, with `file:line:` when the line is known:
///
///     voices/sky.toml: unknown key `flite.pich` (known: voice, duration_stretch, f0_mean_hz)
public struct VoiceProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file (or directory) at fault, as it was named when loading.
    public var file: String
    /// The line, where the TOML parser reports one.
    public var line: Int?
    /// The key at fault, dotted below its section (`flite.voice`), or nil for the whole file.
    public var key: String?
    public var kind: Kind

    public init(file: String, line: Int? = nil, key: String? = nil, kind: Kind) {
        self.file = file
        self.line = line
        self.key = key
        self.kind = kind
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return "\(place): \(message)"
    }

    private var message: String {
        let key = "`\(self.key ?? "")`"
        switch kind {
        case .unreadable(let reason): return "cannot read: \(reason)"
        case .invalidTOML(let reason): return "invalid TOML: \(reason)"
        case .missingKey: return "missing required key \(key)"
        case .unknownKey(let known): return "unknown key \(key) (known: \(known.joined(separator: ", ")))"
        case .wrongType(let expected, let found): return "\(key) must be \(expected), not \(found)"
        case .outOfRange(let allowed, let found): return "\(key) must be \(allowed), not \(found)"
        case .empty: return "\(key) must not be empty"
        case .noEngine: return "no engine section: add at least one of [flite], [espeak-ng], [wyoming], [openai]"
        case .duplicate(let other): return "defines the same voice as \(other); this file is ignored"
        }
    }
}

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
        /// None of `[flite]`, `[espeak-ng]`, `[wyoming]`, `[openai]`: the voice could not be spoken.
        case noEngine
        /// Another file in the same directory has the same id (file names differing only in case).
        case duplicate(of: String)
    }
}

/// Why a voice file could not be read: every problem found in it, in file order.
public struct VoiceFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [VoiceProblem]

    public init(problems: [VoiceProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
