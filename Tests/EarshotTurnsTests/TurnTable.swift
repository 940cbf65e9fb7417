import EarshotTurns

/// The expected behaviour for every starting situation × every input.
/// Turn 1 and reply 1 are the warm-up turn; situations past `listening` are in turn 2 / reply 2.
enum TurnTable {
    static let rows: [TurnTableRow] = restingRows + userTurnRows + replyRows
}

extension TurnTable {
    static let restingRows: [TurnTableRow] = [
        .init(.idle, .start, .listening, .effects([.openMicrophone])),
        .init(.idle, .dismiss, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .mute, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .unmute, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .utteranceStarted, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .utteranceEnded, .idle, .ignored(.noUtteranceInProgress)),
        .init(.idle, .bargeInConfirmed, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .transcript, .idle, .ignored(.staleTranscript(turn: 1))),
        .init(.idle, .emptyTranscript, .idle, .ignored(.staleTranscript(turn: 1))),
        .init(.idle, .staleTranscript, .idle, .ignored(.staleTranscript(turn: 1))),
        .init(.idle, .reply, .idle, .ignored(.staleReply(turn: 1))),
        .init(.idle, .unpromptedReply, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .staleReply, .idle, .ignored(.staleReply(turn: 1))),
        .init(.idle, .playbackStarted, .idle, .ignored(.stalePlayback(reply: 1))),
        .init(.idle, .playbackFinished, .idle, .ignored(.stalePlayback(reply: 1))),
        .init(.idle, .stop, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .cancel, .idle, .rejected(.voiceModeOff)),
        .init(.idle, .tick, .idle, .none),
        .init(.idle, .tickAfterTimeout, .idle, .none),

        .init(.listening, .start, .listening, .rejected(.voiceModeAlreadyOn)),
        .init(.listening, .dismiss, .idle, .effects([.closeMicrophone])),
        .init(.listening, .mute, .listening, .effects([.closeMicrophone])),
        .init(.listening, .unmute, .listening, .rejected(.notMuted)),
        .init(.listening, .utteranceStarted, .hearing, .effects([.beginUtterance(turn: 2)])),
        .init(.listening, .utteranceEnded, .listening, .ignored(.noUtteranceInProgress)),
        .init(.listening, .bargeInConfirmed, .listening, .rejected(.noBargeInSuspected)),
        .init(.listening, .transcript, .listening, .ignored(.staleTranscript(turn: 1))),
        .init(.listening, .emptyTranscript, .listening, .ignored(.staleTranscript(turn: 1))),
        .init(.listening, .staleTranscript, .listening, .ignored(.staleTranscript(turn: 1))),
        .init(.listening, .reply, .listening, .ignored(.staleReply(turn: 1))),
        .init(
            .listening, .unpromptedReply, .thinking,
            .effects([.synthesize(reply: 2, text: TurnTableInput.unpromptedText)])),
        .init(.listening, .staleReply, .listening, .ignored(.staleReply(turn: 1))),
        .init(.listening, .playbackStarted, .listening, .ignored(.stalePlayback(reply: 1))),
        .init(.listening, .playbackFinished, .listening, .ignored(.stalePlayback(reply: 1))),
        .init(.listening, .stop, .listening, .rejected(.nothingPlaying)),
        .init(.listening, .cancel, .listening, .rejected(.nothingToCancel)),
        .init(.listening, .tick, .listening, .none),
        .init(.listening, .tickAfterTimeout, .listening, .none),

        .init(.listeningMuted, .start, .listening, .rejected(.voiceModeAlreadyOn)),
        .init(.listeningMuted, .dismiss, .idle, .effects([])),
        .init(.listeningMuted, .mute, .listening, .rejected(.alreadyMuted)),
        .init(.listeningMuted, .unmute, .listening, .effects([.openMicrophone])),
        .init(.listeningMuted, .utteranceStarted, .listening, .ignored(.microphoneMuted)),
        .init(.listeningMuted, .utteranceEnded, .listening, .ignored(.noUtteranceInProgress)),
        .init(.listeningMuted, .bargeInConfirmed, .listening, .rejected(.noBargeInSuspected)),
        .init(.listeningMuted, .transcript, .listening, .ignored(.staleTranscript(turn: 1))),
        .init(.listeningMuted, .emptyTranscript, .listening, .ignored(.staleTranscript(turn: 1))),
        .init(.listeningMuted, .staleTranscript, .listening, .ignored(.staleTranscript(turn: 1))),
        .init(.listeningMuted, .reply, .listening, .ignored(.staleReply(turn: 1))),
        .init(
            .listeningMuted, .unpromptedReply, .thinking,
            .effects([.synthesize(reply: 2, text: TurnTableInput.unpromptedText)])),
        .init(.listeningMuted, .staleReply, .listening, .ignored(.staleReply(turn: 1))),
        .init(.listeningMuted, .playbackStarted, .listening, .ignored(.stalePlayback(reply: 1))),
        .init(.listeningMuted, .playbackFinished, .listening, .ignored(.stalePlayback(reply: 1))),
        .init(.listeningMuted, .stop, .listening, .rejected(.nothingPlaying)),
        .init(.listeningMuted, .cancel, .listening, .rejected(.nothingToCancel)),
        .init(.listeningMuted, .tick, .listening, .none),
        .init(.listeningMuted, .tickAfterTimeout, .listening, .none),
    ]
}
