extension TurnMachine {
    /// The voice activity detector heard speech begin.
    ///
    /// From `listening` this starts the next turn. While `thinking` it supersedes the pending
    /// turn (the user kept talking), like a realtime assistant cancelling its response. While
    /// `speaking` it is only a suspected barge-in: playback is ducked until it is confirmed.
    public mutating func utteranceStarted() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case _ where microphoneMuted:
            return .ignored(.microphoneMuted)
        case .hearing, .bargeInSuspected:
            return .ignored(.utteranceInProgress)
        case .listening, .transcribing, .awaitingReply, .preparingSpeech:
            return beginTurn(speechStartedAt: clock.now, after: abandonEffects)
        case .speaking(let reply, let deadline):
            let suspected = State.bargeInSuspected(reply: reply, playbackDeadline: deadline, speechStartedAt: clock.now)
            return enter(suspected, effects: [.duckPlayback(reply: reply)])
        }
    }

    /// The voice activity detector heard speech end.
    ///
    /// Ends the current turn's utterance, or resumes playback after a false interruption.
    public mutating func utteranceEnded() -> TurnAction {
        switch state {
        case .hearing:
            return endUtterance()
        case .bargeInSuspected(let reply, let playbackDeadline, _):
            return enter(.speaking(reply: reply, deadline: playbackDeadline), effects: [.resumePlayback(reply: reply)])
        case .idle, .listening, .transcribing, .awaitingReply, .preparingSpeech, .speaking:
            return .ignored(.noUtteranceInProgress)
        }
    }

    /// Confirms a suspected barge-in before `minimumInterruption` has passed (for example
    /// because the transcriber already recognised words). ``tick()`` confirms it otherwise.
    public mutating func bargeInConfirmed() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .bargeInSuspected(let reply, _, let speechStartedAt):
            return beginTurn(speechStartedAt: speechStartedAt, after: [.stopPlayback(reply: reply)])
        case .listening, .hearing, .transcribing, .awaitingReply, .preparingSpeech, .speaking:
            return .rejected(.noBargeInSuspected)
        }
    }

    /// `hearing` → `transcribing`.
    mutating func endUtterance() -> TurnAction {
        let deadline = clock.now.advanced(by: configuration.transcriptTimeout)
        return enter(.transcribing(deadline: deadline), effects: [.endUtterance(turn: turn)])
    }
}
