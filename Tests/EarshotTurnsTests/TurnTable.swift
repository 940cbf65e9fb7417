import EarshotTurns

/// The expected behaviour for every starting situation × every input.
/// Turn 1 and reply 1 are the warm-up turn; situations past `listening` are in turn 2 / reply 2.
enum TurnTable {
    static let rows: [TurnTableRow] =
        restingRows + userTurnRows + replyRows + previewRows + onsetRows + replyTextRows + eagerInputRows + eagerTranscribingRows
        + eagerAwaitingReplyRows + eagerHeldRows + concludingRows
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
        .init(.idle, .speechHeard, .idle, .none),
        .init(.idle, .tickAfterTimeout, .idle, .none),

        .init(.listening, .start, .listening, .rejected(.voiceModeAlreadyOn)),
        .init(.listening, .dismiss, .idle, .effects([.closeMicrophone])),
        .init(.listening, .mute, .listening, .effects([.silenceMicrophone])),
        .init(.listening, .unmute, .listening, .rejected(.notMuted)),
        .init(.listening, .utteranceStarted, .hearing, .effects([.announceSpeech, .beginUtterance(turn: 2)])),
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
        .init(.listening, .speechHeard, .listening, .none),
        .init(.listening, .tickAfterTimeout, .listening, .none),

        .init(.listeningMuted, .start, .listening, .rejected(.voiceModeAlreadyOn)),
        .init(.listeningMuted, .dismiss, .idle, .effects([.closeMicrophone])),
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
        .init(.listeningMuted, .speechHeard, .listening, .none),
        .init(.listeningMuted, .tickAfterTimeout, .listening, .none),
    ]
}

extension TurnTable {
    static let userTurnRows: [TurnTableRow] = [
        .init(.hearing, .start, .hearing, .rejected(.voiceModeAlreadyOn)),
        .init(.hearing, .dismiss, .idle, .effects([.discardUtterance(turn: 2), .closeMicrophone])),
        .init(.hearing, .mute, .listening, .effects([.silenceMicrophone, .discardUtterance(turn: 2)])),
        .init(.hearing, .unmute, .hearing, .rejected(.notMuted)),
        .init(.hearing, .utteranceStarted, .hearing, .ignored(.utteranceInProgress)),
        .init(.hearing, .utteranceEnded, .thinking, .effects([.endUtterance(turn: 2)])),
        .init(.hearing, .bargeInConfirmed, .hearing, .rejected(.noBargeInSuspected)),
        .init(.hearing, .transcript, .hearing, .rejected(.utteranceNotEnded(turn: 2))),
        .init(.hearing, .emptyTranscript, .hearing, .rejected(.utteranceNotEnded(turn: 2))),
        .init(.hearing, .staleTranscript, .hearing, .ignored(.staleTranscript(turn: 1))),
        .init(.hearing, .reply, .hearing, .rejected(.replyNotRequested(turn: 2))),
        .init(.hearing, .unpromptedReply, .hearing, .rejected(.cannotSpeakWhile(.hearing))),
        .init(.hearing, .staleReply, .hearing, .ignored(.staleReply(turn: 1))),
        .init(.hearing, .playbackStarted, .hearing, .ignored(.stalePlayback(reply: 1))),
        .init(.hearing, .playbackFinished, .hearing, .ignored(.stalePlayback(reply: 1))),
        .init(.hearing, .stop, .hearing, .rejected(.nothingPlaying)),
        .init(.hearing, .cancel, .listening, .effects([.discardUtterance(turn: 2)])),
        .init(.hearing, .tick, .hearing, .none),
        .init(.hearing, .speechHeard, .hearing, .none),
        .init(.hearing, .tickAfterTimeout, .thinking, .effects([.endUtterance(turn: 2)])),

        .init(.transcribing, .start, .thinking, .rejected(.voiceModeAlreadyOn)),
        .init(.transcribing, .dismiss, .idle, .effects([.discardUtterance(turn: 2), .closeMicrophone])),
        .init(.transcribing, .mute, .thinking, .effects([.silenceMicrophone])),
        .init(.transcribing, .unmute, .thinking, .rejected(.notMuted)),
        .init(
            .transcribing, .utteranceStarted, .hearing,
            .effects([.announceSpeech, .discardUtterance(turn: 2), .beginUtterance(turn: 3)])),
        .init(.transcribing, .utteranceEnded, .thinking, .ignored(.noUtteranceInProgress)),
        .init(.transcribing, .bargeInConfirmed, .thinking, .rejected(.noBargeInSuspected)),
        .init(
            .transcribing, .transcript, .thinking,
            .effects([.requestReply(turn: 2, transcript: TurnSituation.transcript)])),
        .init(.transcribing, .emptyTranscript, .listening, .effects([])),
        .init(.transcribing, .staleTranscript, .thinking, .ignored(.staleTranscript(turn: 1))),
        .init(.transcribing, .reply, .thinking, .rejected(.replyNotRequested(turn: 2))),
        .init(.transcribing, .unpromptedReply, .thinking, .rejected(.cannotSpeakWhile(.thinking))),
        .init(.transcribing, .staleReply, .thinking, .ignored(.staleReply(turn: 1))),
        .init(.transcribing, .playbackStarted, .thinking, .ignored(.stalePlayback(reply: 1))),
        .init(.transcribing, .playbackFinished, .thinking, .ignored(.stalePlayback(reply: 1))),
        .init(.transcribing, .stop, .thinking, .rejected(.nothingPlaying)),
        .init(.transcribing, .cancel, .listening, .effects([.discardUtterance(turn: 2)])),
        .init(.transcribing, .tick, .thinking, .none),
        .init(.transcribing, .speechHeard, .thinking, .none),
        .init(
            .transcribing, .tickAfterTimeout, .listening,
            .effects([.reportError(.transcriptTimedOut(turn: 2))])),

        .init(.awaitingReply, .start, .thinking, .rejected(.voiceModeAlreadyOn)),
        .init(.awaitingReply, .dismiss, .idle, .effects([.discardReply(turn: 2), .closeMicrophone])),
        .init(.awaitingReply, .mute, .thinking, .effects([.silenceMicrophone])),
        .init(.awaitingReply, .unmute, .thinking, .rejected(.notMuted)),
        .init(
            .awaitingReply, .utteranceStarted, .hearing,
            .effects([.announceSpeech, .discardReply(turn: 2), .beginUtterance(turn: 3)])),
        .init(.awaitingReply, .utteranceEnded, .thinking, .ignored(.noUtteranceInProgress)),
        .init(.awaitingReply, .bargeInConfirmed, .thinking, .rejected(.noBargeInSuspected)),
        .init(.awaitingReply, .transcript, .thinking, .ignored(.staleTranscript(turn: 2))),
        .init(.awaitingReply, .emptyTranscript, .thinking, .ignored(.staleTranscript(turn: 2))),
        .init(.awaitingReply, .staleTranscript, .thinking, .ignored(.staleTranscript(turn: 1))),
        .init(.awaitingReply, .reply, .thinking, .effects([.synthesize(reply: 2, text: TurnSituation.reply)])),
        .init(.awaitingReply, .unpromptedReply, .thinking, .rejected(.cannotSpeakWhile(.thinking))),
        .init(.awaitingReply, .staleReply, .thinking, .ignored(.staleReply(turn: 1))),
        .init(.awaitingReply, .playbackStarted, .thinking, .ignored(.stalePlayback(reply: 1))),
        .init(.awaitingReply, .playbackFinished, .thinking, .ignored(.stalePlayback(reply: 1))),
        .init(.awaitingReply, .stop, .thinking, .rejected(.nothingPlaying)),
        .init(.awaitingReply, .cancel, .listening, .effects([.discardReply(turn: 2)])),
        .init(.awaitingReply, .tick, .thinking, .none),
        .init(.awaitingReply, .speechHeard, .thinking, .none),
        .init(
            .awaitingReply, .tickAfterTimeout, .listening,
            .effects([.discardReply(turn: 2), .reportError(.replyTimedOut(turn: 2))])),
    ]
}

extension TurnTable {
    static let replyRows: [TurnTableRow] = [
        .init(.preparingSpeech, .start, .thinking, .rejected(.voiceModeAlreadyOn)),
        .init(.preparingSpeech, .dismiss, .idle, .effects([.stopPlayback(reply: 2), .closeMicrophone])),
        .init(.preparingSpeech, .mute, .thinking, .effects([.silenceMicrophone])),
        .init(.preparingSpeech, .unmute, .thinking, .rejected(.notMuted)),
        .init(
            .preparingSpeech, .utteranceStarted, .hearing,
            .effects([.announceSpeech, .stopPlayback(reply: 2), .beginUtterance(turn: 3)])),
        .init(.preparingSpeech, .utteranceEnded, .thinking, .ignored(.noUtteranceInProgress)),
        .init(.preparingSpeech, .bargeInConfirmed, .thinking, .rejected(.noBargeInSuspected)),
        .init(.preparingSpeech, .transcript, .thinking, .ignored(.staleTranscript(turn: 2))),
        .init(.preparingSpeech, .emptyTranscript, .thinking, .ignored(.staleTranscript(turn: 2))),
        .init(.preparingSpeech, .staleTranscript, .thinking, .ignored(.staleTranscript(turn: 1))),
        .init(.preparingSpeech, .reply, .thinking, .ignored(.staleReply(turn: 2))),
        .init(.preparingSpeech, .unpromptedReply, .thinking, .rejected(.cannotSpeakWhile(.thinking))),
        .init(.preparingSpeech, .staleReply, .thinking, .ignored(.staleReply(turn: 1))),
        .init(.preparingSpeech, .playbackStarted, .speaking, .effects([])),
        .init(.preparingSpeech, .playbackFinished, .listening, .effects([])),
        .init(.preparingSpeech, .stop, .thinking, .rejected(.nothingPlaying)),
        .init(.preparingSpeech, .cancel, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.preparingSpeech, .tick, .thinking, .none),
        .init(.preparingSpeech, .speechHeard, .thinking, .none),
        .init(
            .preparingSpeech, .tickAfterTimeout, .listening,
            .effects([.stopPlayback(reply: 2), .reportError(.playbackDidNotStart(turn: 2))])),

        .init(.speaking, .start, .speaking, .rejected(.voiceModeAlreadyOn)),
        .init(.speaking, .dismiss, .idle, .effects([.stopPlayback(reply: 2), .closeMicrophone])),
        .init(.speaking, .mute, .speaking, .effects([.silenceMicrophone])),
        .init(.speaking, .unmute, .speaking, .rejected(.notMuted)),
        .init(.speaking, .utteranceStarted, .speaking, .effects([.pausePlayback(reply: 2)])),
        .init(.speaking, .utteranceEnded, .speaking, .ignored(.noUtteranceInProgress)),
        .init(.speaking, .bargeInConfirmed, .speaking, .rejected(.noBargeInSuspected)),
        .init(.speaking, .transcript, .speaking, .ignored(.staleTranscript(turn: 2))),
        .init(.speaking, .emptyTranscript, .speaking, .ignored(.staleTranscript(turn: 2))),
        .init(.speaking, .staleTranscript, .speaking, .ignored(.staleTranscript(turn: 1))),
        .init(.speaking, .reply, .speaking, .ignored(.staleReply(turn: 2))),
        .init(.speaking, .unpromptedReply, .speaking, .rejected(.cannotSpeakWhile(.speaking))),
        .init(.speaking, .staleReply, .speaking, .ignored(.staleReply(turn: 1))),
        .init(.speaking, .playbackStarted, .speaking, .ignored(.stalePlayback(reply: 2))),
        .init(.speaking, .playbackFinished, .listening, .effects([])),
        .init(.speaking, .stop, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.speaking, .cancel, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.speaking, .tick, .speaking, .none),
        .init(.speaking, .speechHeard, .speaking, .none),
        .init(
            .speaking, .tickAfterTimeout, .listening,
            .effects([.stopPlayback(reply: 2), .reportError(.playbackTimedOut(turn: 2))])),

        .init(.bargeInSuspected, .start, .speaking, .rejected(.voiceModeAlreadyOn)),
        .init(.bargeInSuspected, .dismiss, .idle, .effects([.stopPlayback(reply: 2), .closeMicrophone])),
        .init(.bargeInSuspected, .mute, .speaking, .effects([.silenceMicrophone, .resumePlayback(reply: 2)])),
        .init(.bargeInSuspected, .unmute, .speaking, .rejected(.notMuted)),
        .init(.bargeInSuspected, .utteranceStarted, .speaking, .ignored(.utteranceInProgress)),
        .init(.bargeInSuspected, .utteranceEnded, .speaking, .effects([.resumePlayback(reply: 2)])),
        .init(
            .bargeInSuspected, .bargeInConfirmed, .hearing,
            .effects([.announceSpeech, .stopPlayback(reply: 2), .beginUtterance(turn: 3)])),
        .init(.bargeInSuspected, .transcript, .speaking, .ignored(.staleTranscript(turn: 2))),
        .init(.bargeInSuspected, .emptyTranscript, .speaking, .ignored(.staleTranscript(turn: 2))),
        .init(.bargeInSuspected, .staleTranscript, .speaking, .ignored(.staleTranscript(turn: 1))),
        .init(.bargeInSuspected, .reply, .speaking, .ignored(.staleReply(turn: 2))),
        .init(.bargeInSuspected, .unpromptedReply, .speaking, .rejected(.cannotSpeakWhile(.speaking))),
        .init(.bargeInSuspected, .staleReply, .speaking, .ignored(.staleReply(turn: 1))),
        .init(.bargeInSuspected, .playbackStarted, .speaking, .ignored(.stalePlayback(reply: 2))),
        .init(.bargeInSuspected, .playbackFinished, .hearing, .effects([.announceSpeech, .beginUtterance(turn: 3)])),
        .init(.bargeInSuspected, .stop, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.bargeInSuspected, .cancel, .listening, .effects([.stopPlayback(reply: 2)])),
        .init(.bargeInSuspected, .tick, .speaking, .none),
        .init(.bargeInSuspected, .speechHeard, .speaking, .none),
        // Long silent: the burst was a false alarm (confirming needs the person still speaking).
        .init(.bargeInSuspected, .tickAfterTimeout, .speaking, .effects([.resumePlayback(reply: 2)])),
    ]
}

extension TurnTable {
    /// A preview is said straight to the speaker outside voice mode, as an unprompted reply in
    /// it; the turns never wait for a preview's playback.
    static let previewRows: [TurnTableRow] = [
        .init(.idle, .preview, .idle, .effects([.preview(text: TurnTableInput.previewText, voice: TurnTableInput.previewVoice)])),
        .init(.listening, .preview, .thinking, .effects([TurnTableInput.previewAsReply])),
        .init(.listeningMuted, .preview, .thinking, .effects([TurnTableInput.previewAsReply])),
        .init(.hearing, .preview, .hearing, .rejected(.cannotSpeakWhile(.hearing))),
        .init(.transcribing, .preview, .thinking, .rejected(.cannotSpeakWhile(.thinking))),
        .init(.awaitingReply, .preview, .thinking, .rejected(.cannotSpeakWhile(.thinking))),
        .init(.preparingSpeech, .preview, .thinking, .rejected(.cannotSpeakWhile(.thinking))),
        .init(.speaking, .preview, .speaking, .rejected(.cannotSpeakWhile(.speaking))),
        .init(.bargeInSuspected, .preview, .speaking, .rejected(.cannotSpeakWhile(.speaking))),
        .init(.idle, .previewPlayback, .idle, .ignored(.previewPlayback)),
        .init(.listening, .previewPlayback, .listening, .ignored(.previewPlayback)),
        .init(.listeningMuted, .previewPlayback, .listening, .ignored(.previewPlayback)),
        .init(.hearing, .previewPlayback, .hearing, .ignored(.previewPlayback)),
        .init(.transcribing, .previewPlayback, .thinking, .ignored(.previewPlayback)),
        .init(.awaitingReply, .previewPlayback, .thinking, .ignored(.previewPlayback)),
        .init(.preparingSpeech, .previewPlayback, .thinking, .ignored(.previewPlayback)),
        .init(.speaking, .previewPlayback, .speaking, .ignored(.previewPlayback)),
        .init(.bargeInSuspected, .previewPlayback, .speaking, .ignored(.previewPlayback)),
    ]
}

extension TurnTable {
    /// Speech that may be starting matters only over a reply: the reply pauses, and resumes
    /// when it was not speech after all.
    static let onsetRows: [TurnTableRow] = [
        .init(.idle, .onsetSuspected, .idle, .none),
        .init(.listening, .onsetSuspected, .listening, .none),
        .init(.listeningMuted, .onsetSuspected, .listening, .none),
        .init(.hearing, .onsetSuspected, .hearing, .none),
        .init(.transcribing, .onsetSuspected, .thinking, .none),
        .init(.awaitingReply, .onsetSuspected, .thinking, .none),
        .init(.preparingSpeech, .onsetSuspected, .thinking, .none),
        .init(.speaking, .onsetSuspected, .speaking, .effects([.pausePlayback(reply: 2)])),
        .init(.bargeInSuspected, .onsetSuspected, .speaking, .none),
        .init(.idle, .onsetRejected, .idle, .none),
        .init(.listening, .onsetRejected, .listening, .none),
        .init(.listeningMuted, .onsetRejected, .listening, .none),
        .init(.hearing, .onsetRejected, .hearing, .none),
        .init(.transcribing, .onsetRejected, .thinking, .none),
        .init(.awaitingReply, .onsetRejected, .thinking, .none),
        .init(.preparingSpeech, .onsetRejected, .thinking, .none),
        .init(.speaking, .onsetRejected, .speaking, .none),
        .init(.bargeInSuspected, .onsetRejected, .speaking, .effects([.resumePlayback(reply: 2)])),
    ]
}

extension TurnTable {
    /// More text is taken only for a reply in flight that is still waiting for it (a streamed
    /// one: see `TurnMachineStreamedReplyTests`); the table's replies came whole.
    static let replyTextRows: [TurnTableRow] = [
        .init(.idle, .replyText, .idle, .ignored(.staleReplyText(reply: 1))),
        .init(.listening, .replyText, .listening, .ignored(.staleReplyText(reply: 1))),
        .init(.listeningMuted, .replyText, .listening, .ignored(.staleReplyText(reply: 1))),
        .init(.hearing, .replyText, .hearing, .ignored(.staleReplyText(reply: 1))),
        .init(.transcribing, .replyText, .thinking, .ignored(.staleReplyText(reply: 1))),
        .init(.awaitingReply, .replyText, .thinking, .ignored(.staleReplyText(reply: 1))),
        .init(.preparingSpeech, .replyText, .thinking, .rejected(.replyTextEnded(reply: 2))),
        .init(.speaking, .replyText, .speaking, .rejected(.replyTextEnded(reply: 2))),
        .init(.bargeInSuspected, .replyText, .speaking, .rejected(.replyTextEnded(reply: 2))),
    ]
}
