public import EarshotProtocol
public import EarshotTurns

extension ProtocolError {
    /// The failure to send when the turn machine refused a command.
    public init(_ rejection: TurnRejection) {
        switch rejection {
        case .voiceModeOff:
            self.init(code: Code.voiceModeOff, message: "Voice mode is off; send start to turn it on.")
        case .voiceModeAlreadyOn:
            self.init(code: Code.voiceModeAlreadyOn, message: "Voice mode is already on.")
        case .alreadyMuted:
            self.init(code: Code.alreadyMuted, message: "The microphone is already muted.")
        case .notMuted:
            self.init(code: Code.notMuted, message: "The microphone is not muted.")
        case .nothingPlaying:
            self.init(code: Code.nothingPlaying, message: "Nothing is playing, so there is nothing to stop.")
        case .nothingToCancel:
            self.init(code: Code.nothingToCancel, message: "No turn is in progress, so there is nothing to cancel.")
        case .notHeld:
            self.init(
                code: Code.notHeld,
                message: "The talk key is not held: `earshot hold` opens a turn and `earshot release` ends it (a hold also ends by itself after 60 s)."
            )
        case .noBargeInSuspected, .unknownTurn, .unknownReply, .utteranceNotEnded, .replyNotRequested,
            .cannotSpeakWhile, .emptyReply, .replyTextEnded:
            self.init(code: Code.rejected, message: "The voice machine refused this: \(rejection.description).")
        }
    }
}

extension ProtocolError.Code {
    /// The code of the `error` event, and of the `state`'s `error`, for a failure the voice UI shows.
    public init(_ error: TurnError) {
        switch error {
        case .transcriptTimedOut: self = .transcriptTimeout
        case .transcriberUnavailable: self = .transcriberUnavailable
        case .replyTimedOut: self = .replyTimeout
        case .playbackDidNotStart: self = .playbackNotStarted
        case .playbackTimedOut: self = .playbackTimeout
        }
    }
}
