/// Why an input made no sense in the current state; the caller turns it into an error response.
///
/// A rejected input changed nothing.
public enum TurnRejection: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Voice mode is off; only `start` is accepted.
    case voiceModeOff
    /// `start` while voice mode is already on.
    case voiceModeAlreadyOn
    /// `mute` while muted.
    case alreadyMuted
    /// `unmute` while not muted.
    case notMuted
    /// `stop` while the assistant is not audibly speaking.
    case nothingPlaying
    /// `cancel` while there is no turn in progress.
    case nothingToCancel
    /// `bargeInConfirmed` while no interruption is suspected.
    case noBargeInSuspected
    /// A transcript or reply names a turn that has not happened yet.
    case unknownTurn(Int)
    /// A playback event names a reply that was never handed out.
    case unknownReply(Int)
    /// A final transcript for the turn the user is still speaking.
    case utteranceNotEnded(turn: Int)
    /// A reply for the current turn before its transcript was sent to the responder.
    case replyNotRequested(turn: Int)
    /// An unprompted reply while the user or the assistant holds the floor.
    case cannotSpeakWhile(TurnPhase)
    /// An unprompted reply with no text (or only whitespace).
    case emptyReply

    /// A short message for an error response.
    public var description: String {
        switch self {
        case .voiceModeOff: "voice mode is off"
        case .voiceModeAlreadyOn: "voice mode is already on"
        case .alreadyMuted: "the microphone is already muted"
        case .notMuted: "the microphone is not muted"
        case .nothingPlaying: "nothing is playing"
        case .nothingToCancel: "there is no turn to cancel"
        case .noBargeInSuspected: "no interruption is in progress"
        case .unknownTurn(let turn): "turn \(turn) has not happened"
        case .unknownReply(let reply): "reply \(reply) was never requested"
        case .utteranceNotEnded(let turn): "turn \(turn) is still being spoken"
        case .replyNotRequested(let turn): "turn \(turn) has no transcript yet"
        case .cannotSpeakWhile(let phase): "cannot speak while \(phase.rawValue)"
        case .emptyReply: "the reply is empty"
        }
    }
}
