public import EarshotSpeech

/// One thing the assistant says in a conversation script.
public struct ScriptedReply: Equatable, Sendable {
    public var cue: ReplyCue
    public var text: String
    public var voice: Voice
    /// The line of its `[[reply]]` header in the script.
    public var line: Int

    public init(cue: ReplyCue, text: String, voice: Voice, line: Int) {
        self.cue = cue
        self.text = text
        self.voice = voice
        self.line = line
    }

    /// The turn this reply answers; nil when unprompted.
    public var turn: Int? {
        if case .afterTurn(let turn, _) = cue { turn } else { nil }
    }
}
