public import EarshotAudio

/// What the turn machine's effects ask of the speech backends and the player, with the audio
/// they need. The pipeline performs no I/O: its owner (replay, or the daemon) carries these out
/// and reports back through ``VoicePipeline/transcript(turn:text:final:emit:work:)`` and the
/// machine's playback inputs.
public enum SpeechWork: Sendable {
    /// Start transcribing `turn`. `audio` runs from the utterance's start (prefix padding
    /// included; after a barge-in, from the suspected onset) to the latest frame.
    case beginUtterance(turn: Int, audio: [AudioFrame])
    /// The next frame of `turn`'s utterance.
    case utteranceAudio(turn: Int, frame: AudioFrame)
    /// The utterance is complete: finalise its transcript.
    case endUtterance(turn: Int)
    /// Drop `turn`'s audio and any transcription of it.
    case discardUtterance(turn: Int)
    /// Ask the responder (a front end or the responder command) to answer `transcript`.
    case requestReply(turn: Int, transcript: String)
    /// Forget the pending reply to `turn`.
    case discardReply(turn: Int)
    /// Synthesise `text` and play it as reply number `reply`.
    case synthesize(reply: Int, text: String)
    case duckPlayback(reply: Int)
    case resumePlayback(reply: Int)
    /// Silence the speaker at once and abandon the rest of `reply`.
    case stopPlayback(reply: Int)
}
