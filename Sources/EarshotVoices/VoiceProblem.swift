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
        case .noEngine: return "no engine section: add at least one of [flite], [espeak-ng], [wyoming]"
        case .duplicate(let other): return "defines the same voice as \(other); this file is ignored"
        }
    }
}
