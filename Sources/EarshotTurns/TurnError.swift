/// A failure the voice UI shows while it is back in `listening`.
///
/// Every case is a peer that did not answer in time; the machine has already
/// abandoned the turn and asked the caller to discard whatever was pending. `turn` is the
/// turn current at the time; an unprompted reply belongs to the latest turn (0 before any).
public enum TurnError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The final transcript for `turn` did not arrive within `transcriptTimeout`.
    case transcriptTimedOut(turn: Int)
    /// No reply for `turn` arrived within `replyTimeout`.
    case replyTimedOut(turn: Int)
    /// Synthesised speech did not start playing within `playbackStartTimeout`.
    case playbackDidNotStart(turn: Int)
    /// Playback did not report finishing within `maximumPlayback`.
    case playbackTimedOut(turn: Int)

    /// A short message for the user.
    public var description: String {
        switch self {
        case .transcriptTimedOut: "Sorry, I couldn't make out what you said."
        case .replyTimedOut: "Sorry, no reply came back in time."
        case .playbackDidNotStart: "Sorry, I couldn't start speaking."
        case .playbackTimedOut: "Sorry, playback stopped responding."
        }
    }
}
