public import EarshotSpeech

/// The assistant's side of a replayed conversation: what it says, when, and in which voice, and
/// how much of its own voice the microphone hears back.
///
/// Written in TOML beside the recording (`NAME.conversation.toml` for `NAME.wav`), read by
/// ``read(path:voices:defaultVoice:)``:
///
/// ```toml
/// voice = "cove"          # optional: the replies' voice (default: the default voice, Breeze)
/// echo_gain = 0.3         # optional: mix the speaker into the microphone at this gain, 0...1
/// echo_delay_ms = 60      # optional: that echo's delay, 10...300 ms (default 50)
///
/// [[reply]]
/// after_turn = 1          # answers the person's first turn ...
/// delay_ms = 200          # ... 200 ms after it ended (optional, default 0)
/// text = "Tomorrow will be sunny."
///
/// [[reply]]
/// at = 12.5               # or unprompted, at this audio time in seconds
/// text = "By the way, your timer is done."
/// voice = "sky"           # optional: this reply's own voice
/// ```
public struct ConversationScript: Equatable, Sendable {
    /// The file it was read from, as named when reading.
    public var file: String
    /// In the order written.
    public var replies: [ScriptedReply]
    /// Linear gain of the speaker's audio mixed into the microphone; 0 for none.
    public var echoGain: Double
    /// How long after it plays the speaker's audio reaches the microphone.
    public var echoDelayMilliseconds: Int

    public init(file: String, replies: [ScriptedReply], echoGain: Double = 0, echoDelayMilliseconds: Int = 50) {
        self.file = file
        self.replies = replies
        self.echoGain = echoGain
        self.echoDelayMilliseconds = echoDelayMilliseconds
    }

    /// Where a recording's own script is looked for: `NAME.conversation.toml` beside `NAME.wav`.
    public static func companionPath(forRecording path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        let stem = name.lastIndex(of: ".").map { name[..<$0] } ?? name
        return String(path[..<slash]) + (stem.isEmpty ? name : stem) + ".conversation.toml"
    }
}

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

/// When a scripted reply is said.
public enum ReplyCue: Equatable, Sendable {
    /// In answer to the person's turn `turn`, `delayMilliseconds` after the pipeline asks for
    /// the reply (the final transcript, or without a transcriber the end of the utterance).
    case afterTurn(Int, delayMilliseconds: Int)
    /// Unprompted, at this audio time in seconds (on the 10 ms grid), or as soon after it as
    /// the voice UI is `listening` again.
    case at(seconds: Double)
}

/// Why a conversation script could not be used: every problem found in it, in file order.
public struct ConversationScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [ScriptProblem]

    public init(problems: [ScriptProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// One thing wrong with a conversation script, worded for the person who edits it, like a
/// compiler diagnostic:
///
///     barge_in.conversation.toml:9: reply 2: `after_turn` must be a whole number from 1 up, not 0
public struct ScriptProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The script, as it was named when reading.
    public var file: String
    /// The line at fault, when it is known.
    public var line: Int?
    /// The `[[reply]]` at fault, counting from 1; nil for the top of the file.
    public var reply: Int?
    /// The key at fault, nil for the whole file or reply.
    public var key: String?
    /// What is wrong and what would do.
    public var message: String

    public init(file: String, line: Int? = nil, reply: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.reply = reply
        self.key = key
        self.message = message
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let within = reply.map { "reply \($0): " } ?? ""
        return "\(place): \(within)\(message)"
    }
}
