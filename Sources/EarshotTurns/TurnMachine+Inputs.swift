// MARK: - Voice mode, mute, stop and cancel

extension TurnMachine {
    /// Turns voice mode on: `idle` → `listening`, microphone open and unmuted.
    public mutating func start() -> TurnAction {
        if let oneShot, oneShot.returnsTo == .off { return stayOn(after: oneShot) }
        guard case .idle = state else { return .rejected(.voiceModeAlreadyOn) }
        microphoneMuted = false
        return enter(.listening(error: nil), effects: [.openMicrophone] + cue(.voiceModeOn))
    }

    /// Leaves voice mode from any active phase, abandoning whatever is pending.
    public mutating func dismiss() -> TurnAction {
        if case .idle = state { return .rejected(.voiceModeOff) }
        // A one-shot turn taken while voice mode was off never turned it on: no cue for leaving.
        let effects = abandonEffects + [.closeMicrophone] + (oneShot?.returnsTo == .off ? [] : cue(.voiceModeOff))
        let from = snapshot
        oneShot = nil
        state = .idle
        microphoneMuted = false
        speechOverReply = .none
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// Mutes the microphone. Discards an utterance in progress; drops a suspected barge-in.
    public mutating func mute() -> TurnAction {
        if case .idle = state { return .rejected(.voiceModeOff) }
        if microphoneMuted { return .rejected(.alreadyMuted) }
        let from = snapshot
        microphoneMuted = true
        speechOverReply = .none
        var effects: [TurnEffect] = [.silenceMicrophone]
        switch state {
        case .hearing, .keyHeld:
            effects.append(.discardUtterance(turn: turn))
            state = .listening(error: nil)
        case .mayHaveEnded(let preparation, _):
            effects += [.discardUtterance(turn: turn)] + abandonEffects(preparation)
            state = .listening(error: nil)
        case .bargeInSuspected(let reply, let playbackDeadline, _, _):
            effects.append(.resumePlayback(reply: reply.number))
            state = .speaking(reply, deadline: playbackDeadline)
        case .idle, .listening, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .concluding:
            break
        }
        if case .listening = state { effects += endOneShot() }
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// Unmutes the microphone; the phase is unchanged.
    public mutating func unmute() -> TurnAction {
        if case .idle = state { return .rejected(.voiceModeOff) }
        if let oneShot, oneShot.returnsTo == .muted, !microphoneMuted { return stayOn(after: oneShot) }
        guard microphoneMuted else { return .rejected(.notMuted) }
        if oneShot?.returnsTo == .muted { oneShot = nil }
        let from = snapshot
        microphoneMuted = false
        return .transition(TurnTransition(from: from, to: snapshot, effects: [.openMicrophone]))
    }

    func cue(_ cue: TurnCue) -> [TurnEffect] {
        configuration.playsCues ? [.playCue(cue)] : []
    }

    /// Stops the assistant's speech and returns to `listening`.
    public mutating func stop() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .speaking(let reply, _), .bargeInSuspected(let reply, _, _, _):
            return enter(.listening(error: nil), effects: stopEffects(reply))
        case .listening, .hearing, .keyHeld, .transcribing, .awaitingReply, .preparingSpeech, .mayHaveEnded, .concluding:
            return .rejected(.nothingPlaying)
        }
    }

    /// Abandons the current turn, whatever stage it reached, and returns to `listening`.
    public mutating func cancel() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .listening:
            // `talk` still waiting for speech: cancelling it is going back to what voice mode was.
            guard oneShot != nil else { return .rejected(.nothingToCancel) }
            return enter(.listening(error: nil), effects: [])
        case .hearing, .keyHeld, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected, .mayHaveEnded, .concluding:
            return enter(.listening(error: nil), effects: abandonEffects)
        }
    }
}

// MARK: - Speech

extension TurnMachine {
    /// The voice activity detector heard speech begin.
    ///
    /// From `listening` this starts the next turn. While `thinking` it supersedes the pending
    /// turn (the user kept talking), like a realtime assistant cancelling its response, and
    /// within `rejoinWindow` of the silence that ended it goes on with it (as a confirmed
    /// barge-in does). While `speaking` it is only a suspected barge-in: playback is paused until
    /// it is confirmed.
    public mutating func utteranceStarted() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case _ where microphoneMuted:
            return .ignored(.microphoneMuted)
        case .hearing:
            guard speechOverReply == .awaitingDetector else { return .ignored(.utteranceInProgress) }
            speechOverReply = .none
            return .transition(TurnTransition(from: snapshot, to: snapshot, effects: [.announceSpeech]))
        case .bargeInSuspected:
            speechOverReply = .confirmedByDetector
            return .ignored(.utteranceInProgress)
        case .mayHaveEnded, .keyHeld:
            return .ignored(.utteranceInProgress)
        case .listening, .concluding:
            return beginTurn(speechStartedAt: clock.now, after: abandonEffects, detectorConfirmed: true)
        case .transcribing, .awaitingReply, .preparingSpeech:
            let rejoin = rejoinEffects(speechStartedAt: clock.now)
            return beginTurn(speechStartedAt: clock.now, after: abandonEffects + rejoin, detectorConfirmed: true)
        case .speaking:
            let action = suspectBargeIn()
            speechOverReply = .confirmedByDetector
            return action
        }
    }

    /// Pauses the reply being spoken, keeping its place: the person may be interrupting.
    private mutating func suspectBargeIn() -> TurnAction {
        guard case .speaking(let reply, let deadline) = state else { return .none }
        let suspected = State.bargeInSuspected(
            reply, playbackDeadline: deadline, speechStartedAt: clock.now, lastHeardAt: clock.now
        )
        return enter(suspected, effects: [.pausePlayback(reply: reply.number)])
    }

    /// The voice activity detector heard speech end.
    ///
    /// Ends the current turn's utterance, or resumes playback after a false interruption.
    public mutating func utteranceEnded() -> TurnAction {
        switch state {
        case .hearing:
            silentEnd = (turn, clock.now)
            return endUtterance()
        case .mayHaveEnded(let preparation, _):
            silentEnd = (turn, clock.now)
            return confirmEnd(preparation)
        case .bargeInSuspected(let reply, let playbackDeadline, _, _):
            return enter(.speaking(reply, deadline: playbackDeadline), effects: [.resumePlayback(reply: reply.number)])
        case .keyHeld:
            return .ignored(.keyHeld)
        case .idle, .listening, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .concluding:
            return .ignored(.noUtteranceInProgress)
        }
    }

    /// Speech may be starting (heard, not yet confirmed as speech). Only a reply being spoken
    /// cares: it is paused at once, as a suspected barge-in. Otherwise nothing.
    public mutating func onsetSuspected() -> TurnAction {
        guard case .speaking = state, !microphoneMuted else { return .none }
        return suspectBargeIn()
    }

    /// What `onsetSuspected` heard turned out not to be speech: a paused reply resumes.
    /// Otherwise nothing.
    public mutating func onsetRejected() -> TurnAction {
        guard case .bargeInSuspected = state else { return .none }
        return utteranceEnded()
    }

    /// The voice activity detector heard speech in the latest frame. While a barge-in is
    /// suspected this keeps it alive: ``tick()`` confirms it once `minimumInterruption` has
    /// passed with the person still speaking, and resumes the reply once they have been silent
    /// for `falseInterruptionSilence`. Otherwise nothing; returns `.none` without allocating.
    public mutating func speechHeard() -> TurnAction {
        guard case .bargeInSuspected(let reply, let playbackDeadline, let speechStartedAt, _) = state else { return .none }
        state = .bargeInSuspected(reply, playbackDeadline: playbackDeadline, speechStartedAt: speechStartedAt, lastHeardAt: clock.now)
        return .none
    }

    /// Confirms a suspected barge-in before `minimumInterruption` has passed (for example
    /// because the transcriber already recognised words). ``tick()`` confirms it otherwise.
    public mutating func bargeInConfirmed() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .bargeInSuspected(let reply, _, let speechStartedAt, _):
            return beginTurnAfterBargeIn(speechStartedAt: speechStartedAt, after: stopEffects(reply))
        case .listening, .hearing, .keyHeld, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .mayHaveEnded, .concluding:
            return .rejected(.noBargeInSuspected)
        }
    }

    /// `hearing` → `transcribing`, after `effects`.
    mutating func endUtterance(after effects: [TurnEffect] = []) -> TurnAction {
        let deadline = clock.now.advanced(by: configuration.transcriptTimeout)
        return enter(.transcribing(deadline: deadline), effects: effects + [.endUtterance(turn: turn)] + oneShotUtteranceOver())
    }
}

// MARK: - Transcripts and replies

extension TurnMachine {
    /// The transcriber's final transcript for `turn`.
    ///
    /// A transcript of only whitespace means nothing was recognised: back to `listening`
    /// without asking for a reply.
    public mutating func finalTranscript(turn transcribed: Int, text: String) -> TurnAction {
        if case .mayHaveEnded(.transcribing, _) = state, transcribed == turn {
            if text.allSatisfy(\.isWhitespace) { return prepare(.nothingToSay, effects: []) }
            return prepare(.awaitingReply, effects: [.requestReply(turn: turn, transcript: text)])
        }
        if case .transcribing = state, transcribed == turn {
            if text.allSatisfy(\.isWhitespace) {
                return enter(.listening(error: nil), effects: [])
            }
            let deadline = clock.now.advanced(by: configuration.replyTimeout)
            return enter(.awaitingReply(deadline: deadline), effects: [.requestReply(turn: turn, transcript: text)])
        }
        guard isKnown(turn: transcribed) else { return .rejected(.unknownTurn(transcribed)) }
        switch state {
        case .hearing where transcribed == turn, .keyHeld where transcribed == turn:
            return .rejected(.utteranceNotEnded(turn: transcribed))
        default:
            break
        }
        return .ignored(.staleTranscript(turn: transcribed))
    }

    /// The transcriber could not take `turn`'s utterance (it is unreachable or failed). The
    /// caller keeps the audio and retries; the user is back in `listening` meanwhile.
    public mutating func transcriptionFailed(turn failed: Int) -> TurnAction {
        if case .mayHaveEnded(.transcribing, _) = state, failed == turn {
            return prepare(.transcriptionFailed, effects: [])
        }
        if case .transcribing = state, failed == turn {
            return enter(.listening(error: .transcriberUnavailable(turn: turn)), effects: [])
        }
        guard isKnown(turn: failed) else { return .rejected(.unknownTurn(failed)) }
        return .ignored(.staleTranscript(turn: failed))
    }

    /// Something wants the assistant to say `text`: the responder answering `turn`, or with
    /// `turn == nil` an unprompted announcement, accepted only while `listening`. `voice` (an
    /// id) says it in a voice of its own; `continues` says more text for it follows.
    ///
    /// An empty (or whitespace) answer to a turn means the responder chose not to reply: back to `listening`.
    public mutating func replyRequested(turn answered: Int?, text: String, voice: String? = nil, continues: Bool = false) -> TurnAction {
        guard let answered else { return unpromptedReply(text: text, voice: voice, continues: continues) }
        if case .mayHaveEnded(.awaitingReply, _) = state, answered == turn {
            return holdReply(text, voice: voice, continues: continues)
        }
        if case .awaitingReply = state, answered == turn {
            if text.allSatisfy(\.isWhitespace) {
                return enter(.listening(error: nil), effects: [])
            }
            return speak(text, voice: voice, answering: answered, continues: continues)
        }
        guard isKnown(turn: answered) else { return .rejected(.unknownTurn(answered)) }
        if answered == turn {
            switch state {
            case .hearing, .keyHeld, .transcribing, .mayHaveEnded(.transcribing, _):
                return .rejected(.replyNotRequested(turn: answered))
            case .idle, .listening, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected, .mayHaveEnded, .concluding:
                break
            }
        }
        return .ignored(.staleReply(turn: answered))
    }

    /// A sample line in `voice`: outside voice mode it goes straight to the speaker; in voice
    /// mode it is an unprompted reply, so the microphone knows it is the assistant talking.
    public mutating func preview(text: String, voice: String?) -> TurnAction {
        guard case .idle = state else { return unpromptedReply(text: text, voice: voice, continues: false) }
        return .transition(TurnTransition(from: snapshot, to: snapshot, effects: [.preview(text: text, voice: voice)]))
    }

    private mutating func unpromptedReply(text: String, voice: String?, continues: Bool) -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .listening:
            return text.allSatisfy(\.isWhitespace) ? .rejected(.emptyReply) : speak(text, voice: voice, answering: nil, continues: continues)
        case .hearing, .keyHeld, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected, .mayHaveEnded, .concluding:
            return .rejected(.cannotSpeakWhile(state.phase))
        }
    }

    /// Hands out the next reply number and asks for it to be synthesised.
    private mutating func speak(_ text: String, voice: String?, answering turn: Int?, continues: Bool) -> TurnAction {
        latestReply += 1
        let deadline = clock.now.advanced(by: configuration.playbackStartTimeout)
        let preparing = State.preparingSpeech(Reply(number: latestReply, turn: turn, awaitsText: continues), deadline: deadline)
        return enter(preparing, effects: [.synthesize(reply: latestReply, text: text, voice: voice, continues: continues)])
    }

    /// More of `reply`'s text, given after its start (``replyRequested(turn:text:voice:continues:)``
    /// with `continues`); `continues` says whether still more follows. It is said only while
    /// the reply is in flight: a reply stopped, interrupted or finished takes no more.
    public mutating func replyContinued(reply continued: Int, text: String, continues: Bool) -> TurnAction {
        guard var reply = state.reply, reply.number == continued else {
            return continued >= 1 && continued <= latestReply ? .ignored(.staleReplyText(reply: continued)) : .rejected(.unknownReply(continued))
        }
        guard reply.awaitsText else { return .rejected(.replyTextEnded(reply: continued)) }
        reply.awaitsText = continues
        state = state.replacing(reply)
        return .transition(TurnTransition(from: snapshot, to: snapshot, effects: [.continueSpeech(reply: continued, text: text, continues: continues)]))
    }
}

// MARK: - Playback

extension TurnMachine {
    /// The player started playing `reply`: `thinking` → `speaking`.
    public mutating func playbackStarted(reply started: Int) -> TurnAction {
        if case .preparingSpeech(let reply, _) = state, reply.number == started {
            let deadline = clock.now.advanced(by: configuration.maximumPlayback)
            return enter(.speaking(reply, deadline: deadline), effects: [])
        }
        return playbackEventOutOfTurn(reply: started)
    }

    /// The player finished `reply` (or synthesis produced no audio, or failed): back to
    /// `listening`. A responder still giving the reply's text is told to stop.
    ///
    /// If the user was already talking over the end of it, their speech becomes the next turn.
    public mutating func playbackFinished(reply finished: Int) -> TurnAction {
        switch state {
        case .preparingSpeech(let reply, _) where reply.number == finished, .speaking(let reply, _) where reply.number == finished:
            return enter(.listening(error: nil), effects: discardTextEffects(reply))
        case .bargeInSuspected(let reply, _, let speechStartedAt, _) where reply.number == finished:
            return beginTurnAfterBargeIn(speechStartedAt: speechStartedAt, after: discardTextEffects(reply))
        case .mayHaveEnded(.held(let reply), _) where reply.number == finished:
            // The held reply gave no audio: there is nothing to play once the end is confirmed.
            return prepare(.nothingToSay, effects: discardTextEffects(reply))
        default:
            return playbackEventOutOfTurn(reply: finished)
        }
    }

    private func playbackEventOutOfTurn(reply: Int) -> TurnAction {
        if reply == Self.previewReply { return .ignored(.previewPlayback) }
        return reply >= 1 && reply <= latestReply ? .ignored(.stalePlayback(reply: reply)) : .rejected(.unknownReply(reply))
    }
}

// MARK: - Deadlines

extension TurnMachine {
    /// Acts on the deadline that has passed, if any. Returns `.none`, without allocating,
    /// when nothing is due.
    ///
    /// Peers that miss a deadline have their work abandoned and the UI returns to
    /// `listening` showing a ``TurnError``. An over-long utterance is ended as if the user
    /// paused, and a suspected barge-in that lasted `minimumInterruption` is confirmed, or resumed
    /// as a false alarm once it has been silent for `falseInterruptionSilence`.
    public mutating func tick() -> TurnAction {
        guard let deadline = nextDeadline else { return .none }
        guard clock.now >= deadline else { return .none }
        switch state {
        case .idle:
            return .none
        case .listening:
            // `talk` heard no speech in time: voice mode goes back to what it was.
            return enter(.listening(error: nil), effects: [])
        case .hearing:
            return endUtterance()
        case .keyHeld:
            return endHeldUtterance(.limit)
        case .mayHaveEnded(let preparation, _):
            return confirmEnd(preparation)
        case .concluding:
            return enter(.listening(error: nil), effects: [])
        case .transcribing:
            // The utterance is not discarded: its transcript may still arrive, late.
            return enter(.listening(error: .transcriptTimedOut(turn: turn)), effects: [.reportError(.transcriptTimedOut(turn: turn))])
        case .awaitingReply:
            return fail(.replyTimedOut(turn: turn))
        case .preparingSpeech:
            return fail(.playbackDidNotStart(turn: turn))
        case .speaking:
            return fail(.playbackTimedOut(turn: turn))
        case .bargeInSuspected(let reply, let playbackDeadline, let speechStartedAt, let lastHeardAt):
            if clock.now >= lastHeardAt.advanced(by: configuration.falseInterruptionSilence) {
                // Silent too long to be someone talking: a cough, a click, an "mm".
                return enter(.speaking(reply, deadline: playbackDeadline), effects: [.resumePlayback(reply: reply.number)])
            }
            // Confirmed only while the person is still speaking: a burst that already fell
            // silent waits to be declared a false alarm instead.
            guard lastHeardAt == clock.now, clock.now >= speechStartedAt.advanced(by: configuration.minimumInterruption) else {
                return .none
            }
            return beginTurnAfterBargeIn(speechStartedAt: speechStartedAt, after: stopEffects(reply))
        }
    }

    /// Abandons the pending work and shows `error` in `listening`.
    private mutating func fail(_ error: TurnError) -> TurnAction {
        enter(.listening(error: error), effects: abandonEffects + [.reportError(error)])
    }
}
