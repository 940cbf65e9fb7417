public import EarshotSpeech

/// The voices Earshot can speak in: the bundled files, overridden and extended by the user's.
///
/// Loading never fails as a whole: a file that cannot be used is listed in `problems` and the
/// others load. A user's file whose id matches a bundled one replaces it; an invalid user file
/// leaves the bundled voice in place.
public struct VoiceCatalog: Sendable {
    /// The voice used when none is chosen (or the chosen one is missing).
    public static let defaultVoiceID = "breeze"

    /// Every usable voice, sorted by id.
    public private(set) var voices: [Voice]
    /// What could not be loaded, in the order found (bundled directory first).
    public private(set) var problems: [VoiceProblem]

    public init(voices: [Voice], problems: [VoiceProblem] = []) {
        var byID: [String: Voice] = [:]
        for voice in voices { byID[voice.id.lowercased()] = voice }
        self.voices = byID.values.sorted { $0.id < $1.id }
        self.problems = problems
    }

    /// The voice whose id (case-insensitively) or else display name (likewise) is `name`.
    public func voice(named name: String) -> Voice? {
        let wanted = name.lowercased()
        return voices.first { $0.id.lowercased() == wanted }
            ?? voices.first { $0.displayName.lowercased() == wanted }
    }

    /// Breeze when it loaded, otherwise the first voice by id.
    public var defaultVoice: Voice? {
        voice(named: Self.defaultVoiceID) ?? voices.first
    }
}
