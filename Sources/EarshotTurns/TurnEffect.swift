/// One thing the caller must do, in the order given, after an input was accepted.
///
/// Turns and replies are numbered by the machine; the caller echoes them back in
/// `finalTranscript(turn:text:)`, `replyRequested(turn:text:)` and the playback inputs
/// so late events from an abandoned turn are recognised as stale.
public enum TurnEffect: Equatable, Hashable, Sendable {
    /// Start capturing audio for voice activity detection.
    case openMicrophone
    /// Stop capturing audio.
    case closeMicrophone
    /// Start transcribing `turn`, from the moment the speech began (include the pre-roll;
    /// after a barge-in, from when the interruption was first suspected).
    case beginUtterance(turn: Int)
    /// The user stopped speaking: finalise the transcript of `turn`.
    case endUtterance(turn: Int)
    /// Drop the audio and any transcription of `turn`.
    case discardUtterance(turn: Int)
    /// Ask the responder for a reply to `transcript`; answer with `replyRequested(turn:text:)`.
    case requestReply(turn: Int, transcript: String)
    /// Cancel the responder's pending reply for `turn`.
    case discardReply(turn: Int)
    /// Synthesise `text` and play it; report `playbackStarted(reply:)` and `playbackFinished(reply:)`.
    case synthesize(reply: Int, text: String)
    /// Lower the playback volume: the user may be interrupting.
    case duckPlayback(reply: Int)
    /// Restore the playback volume: the interruption was a false alarm.
    case resumePlayback(reply: Int)
    /// Stop playback and abandon any synthesis still running for `reply`.
    case stopPlayback(reply: Int)
    /// Tell the user about `error` (it is also in the new snapshot).
    case reportError(TurnError)
}
