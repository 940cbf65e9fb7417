extension TurnMachine {
    /// Acts on the deadline that has passed, if any. Returns `.none`, without allocating,
    /// when nothing is due.
    ///
    /// Peers that miss a deadline have their work abandoned and the UI returns to
    /// `listening` showing a ``TurnError``. An over-long utterance is ended as if the user
    /// paused, and a suspected barge-in that lasted `minimumInterruption` is confirmed.
    public mutating func tick() -> TurnAction {
        guard let deadline = nextDeadline else { return .none }
        guard clock.now >= deadline else { return .none }
        switch state {
        case .idle, .listening:
            return .none
        case .hearing:
            return endUtterance()
        case .transcribing:
            // The utterance is not discarded: its transcript may still arrive, late.
            return enter(.listening(error: .transcriptTimedOut(turn: turn)), effects: [.reportError(.transcriptTimedOut(turn: turn))])
        case .awaitingReply:
            return fail(.replyTimedOut(turn: turn))
        case .preparingSpeech:
            return fail(.playbackDidNotStart(turn: turn))
        case .speaking:
            return fail(.playbackTimedOut(turn: turn))
        case .bargeInSuspected(let reply, _, let speechStartedAt):
            return beginTurn(speechStartedAt: speechStartedAt, after: [.stopPlayback(reply: reply)])
        }
    }

    /// Abandons the pending work and shows `error` in `listening`.
    private mutating func fail(_ error: TurnError) -> TurnAction {
        enter(.listening(error: error), effects: abandonEffects + [.reportError(error)])
    }
}
