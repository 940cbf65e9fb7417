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
