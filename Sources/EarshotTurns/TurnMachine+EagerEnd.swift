// MARK: - Eager end, confirmed end, resumed

/// At the first moment a turn may be over, its answer is prepared: the transcript of the audio
/// so far finalised, the reply asked for, its first piece synthesised and held. Nothing plays
/// until the end is confirmed (``utteranceEnded()``); a held reply then plays at once. If the
/// person goes on first, what was prepared is dropped unheard and the utterance continues as the
/// next turn, transcribed again as a whole: a new turn number makes every late transcript, reply
/// or playback report of the dropped one stale, as for any abandoned turn.
extension TurnMachine {
    /// The person fell silent where the turn may be over (the endpointer's eager end): from
    /// `hearing`, the transcript of the utterance so far is finalised while its audio keeps coming.
    /// The phase stays `hearing`. Otherwise nothing.
    public mutating func utteranceMayHaveEnded() -> TurnAction {
        switch state {
        case .hearing(let deadline):
            return enter(.mayHaveEnded(.transcribing, deadline: deadline), effects: [.finalizeTranscript(turn: turn)])
        case .mayHaveEnded:
            return .ignored(.eagerEndPending)
        case .keyHeld:
            return .ignored(.keyHeld)
        case .idle, .listening, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected, .concluding:
            return .ignored(.noUtteranceInProgress)
        }
    }

    /// The person spoke again after an eager end, before the end was confirmed: what was prepared
    /// is dropped unheard (a reply awaited is cancelled, a held one stopped), and the utterance goes
    /// on as the next turn, still `hearing`, with the deadline of the utterance as it began.
    public mutating func utteranceResumed() -> TurnAction {
        guard case .mayHaveEnded(let preparation, let deadline) = state else { return .ignored(.noEagerEnd) }
        let from = snapshot
        let dropped = turn
        let effects = abandonEffects(preparation)
        turn += 1
        state = .hearing(deadline: deadline)
        speechOverReply = .none
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects + [.continueUtterance(from: dropped, turn: turn)]))
    }

    /// The end of a turn that may have been over is confirmed: it moves on from where its
    /// preparation stands, asking for nothing twice; a held reply is released at once.
    mutating func confirmEnd(_ preparation: Preparation) -> TurnAction {
        let now = clock.now
        let end: [TurnEffect] = [.endUtterance(turn: turn)] + oneShotUtteranceOver()
        switch preparation {
        case .transcribing:
            return enter(.transcribing(deadline: now.advanced(by: configuration.transcriptTimeout)), effects: end)
        case .awaitingReply:
            return enter(.awaitingReply(deadline: now.advanced(by: configuration.replyTimeout)), effects: end)
        case .held(let reply):
            let deadline = now.advanced(by: configuration.playbackStartTimeout)
            return enter(.preparingSpeech(reply, deadline: deadline), effects: end + [.releasePlayback(reply: reply.number)])
        case .nothingToSay:
            return enter(.concluding(deadline: now), effects: end)
        case .transcriptionFailed:
            return enter(.listening(error: .transcriberUnavailable(turn: turn)), effects: end)
        }
    }

    /// Moves the answer to a turn that may be over on to `preparation`; the phase stays `hearing`.
    mutating func prepare(_ preparation: Preparation, effects: [TurnEffect]) -> TurnAction {
        guard case .mayHaveEnded(_, let deadline) = state else { return .none }
        return enter(.mayHaveEnded(preparation, deadline: deadline), effects: effects)
    }

    /// The responder's answer to a turn that may be over: synthesised and held, or nothing to say.
    mutating func holdReply(_ text: String, voice: String?, continues: Bool) -> TurnAction {
        if text.allSatisfy(\.isWhitespace) { return prepare(.nothingToSay, effects: []) }
        latestReply += 1
        let reply = Reply(number: latestReply, turn: turn, awaitsText: continues)
        return prepare(.held(reply), effects: [.prepareSpeech(reply: reply.number, text: text, voice: voice, continues: continues)])
    }

    /// What dropping a preparation takes: a reply awaited is cancelled, a held one stopped unheard.
    func abandonEffects(_ preparation: Preparation) -> [TurnEffect] {
        switch preparation {
        case .transcribing, .nothingToSay, .transcriptionFailed: []
        case .awaitingReply: [.discardReply(turn: turn)]
        case .held(let reply): stopEffects(reply)
        }
    }
}
