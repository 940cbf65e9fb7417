extension TurnMachine {
    /// Turns voice mode on: `idle` → `listening`, microphone open and unmuted.
    public mutating func start() -> TurnAction {
        guard case .idle = state else { return .rejected(.voiceModeAlreadyOn) }
        microphoneMuted = false
        return enter(.listening(error: nil), effects: [.openMicrophone])
    }

    /// Leaves voice mode from any active phase, abandoning whatever is pending.
    public mutating func dismiss() -> TurnAction {
        if case .idle = state { return .rejected(.voiceModeOff) }
        let effects = abandonEffects + (microphoneMuted ? [] : [.closeMicrophone])
        let from = snapshot
        state = .idle
        microphoneMuted = false
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// Mutes the microphone. Discards an utterance in progress; drops a suspected barge-in.
    public mutating func mute() -> TurnAction {
        if case .idle = state { return .rejected(.voiceModeOff) }
        if microphoneMuted { return .rejected(.alreadyMuted) }
        let from = snapshot
        microphoneMuted = true
        var effects: [TurnEffect] = [.closeMicrophone]
        switch state {
        case .hearing:
            effects.append(.discardUtterance(turn: turn))
            state = .listening(error: nil)
        case .bargeInSuspected(let reply, let playbackDeadline, _):
            effects.append(.resumePlayback(reply: reply))
            state = .speaking(reply: reply, deadline: playbackDeadline)
        case .idle, .listening, .transcribing, .awaitingReply, .preparingSpeech, .speaking:
            break
        }
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// Unmutes the microphone; the phase is unchanged.
    public mutating func unmute() -> TurnAction {
        if case .idle = state { return .rejected(.voiceModeOff) }
        guard microphoneMuted else { return .rejected(.notMuted) }
        let from = snapshot
        microphoneMuted = false
        return .transition(TurnTransition(from: from, to: snapshot, effects: [.openMicrophone]))
    }

    /// Stops the assistant's speech and returns to `listening`.
    public mutating func stop() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .speaking(let reply, _), .bargeInSuspected(let reply, _, _):
            return enter(.listening(error: nil), effects: [.stopPlayback(reply: reply)])
        case .listening, .hearing, .transcribing, .awaitingReply, .preparingSpeech:
            return .rejected(.nothingPlaying)
        }
    }

    /// Abandons the current turn, whatever stage it reached, and returns to `listening`.
    public mutating func cancel() -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .listening:
            return .rejected(.nothingToCancel)
        case .hearing, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected:
            return enter(.listening(error: nil), effects: abandonEffects)
        }
    }
}
