/// A failure the voice UI shows while it is back in `listening`.
///
/// Each case is a peer that did not answer in time or could not be reached. The machine has
/// abandoned the work pending, except an utterance's transcription: its audio is kept and its
/// transcript may still arrive later. `turn` is the turn current at the time; an unprompted
/// reply belongs to the latest turn (0 before any).
public enum TurnError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The final transcript for `turn` did not arrive within `transcriptTimeout`.
    case transcriptTimedOut(turn: Int)
    /// The transcriber could not be reached for `turn`; it is transcribed once it returns.
    case transcriberUnavailable(turn: Int)
    /// No reply for `turn` arrived within `replyTimeout`.
    case replyTimedOut(turn: Int)
    /// Synthesised speech did not start playing within `playbackStartTimeout`.
    case playbackDidNotStart(turn: Int)
    /// Playback did not report finishing within `maximumPlayback`.
    case playbackTimedOut(turn: Int)

    /// A short message for the user.
    public var description: String {
        switch self {
        case .transcriptTimedOut: "The transcription is taking long; its words will appear when they arrive."
        case .transcriberUnavailable: "The transcriber is unavailable; what you said is kept and transcribed when it returns."
        case .replyTimedOut: "Sorry, no reply came back in time."
        case .playbackDidNotStart: "Sorry, I couldn't start speaking."
        case .playbackTimedOut: "Sorry, playback stopped responding."
        }
    }
}
