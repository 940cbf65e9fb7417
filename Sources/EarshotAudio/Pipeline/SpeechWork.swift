public import EarshotTurns

/// What the turn machine's effects ask of the microphone, the speech backends and the player,
/// with the audio they need. The pipeline performs no I/O: its owner (replay, or the daemon) carries these out
/// and reports back through ``VoicePipeline/transcript(turn:text:final:emit:work:)`` and the
/// machine's playback inputs.
public enum SpeechWork: Sendable {
    /// Capture from the microphone (voice mode starts, or is unmuted).
    case openMicrophone
    /// Stop capturing; the stream may stand still (voice mode ends).
    case closeMicrophone
    /// Stop capturing, but keep feeding frames of silence in real time (voice mode is muted).
    case silenceMicrophone
    case playCue(TurnCue)
    /// Say `text` in `voice` (an id; nil: the current one) straight to the speaker, outside the
    /// turns; its playback reports carry ``TurnMachine/previewReply``.
    case preview(text: String, voice: String?)
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
    /// Synthesise `text` in `voice` (an id; nil: the current one) and play it as reply number
    /// `reply`; with `continues`, more of its text follows.
    case synthesize(reply: Int, text: String, voice: String?, continues: Bool)
    case duckPlayback(reply: Int)
    case resumePlayback(reply: Int)
    /// Silence the speaker at once and abandon the rest of `reply`.
    case stopPlayback(reply: Int)
}
