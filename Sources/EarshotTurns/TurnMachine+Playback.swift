extension TurnMachine {
    /// The player started playing `reply`: `thinking` → `speaking`.
    public mutating func playbackStarted(reply started: Int) -> TurnAction {
        if case .preparingSpeech(let reply, _) = state, reply == started {
            let deadline = clock.now.advanced(by: configuration.maximumPlayback)
            return enter(.speaking(reply: reply, deadline: deadline), effects: [])
        }
        return playbackEventOutOfTurn(reply: started)
    }

    /// The player finished `reply` (or synthesis produced no audio): back to `listening`.
    ///
    /// If the user was already talking over the end of it, their speech becomes the next turn.
    public mutating func playbackFinished(reply finished: Int) -> TurnAction {
        switch state {
        case .preparingSpeech(let reply, _) where reply == finished, .speaking(let reply, _) where reply == finished:
            return enter(.listening(error: nil), effects: [])
        case .bargeInSuspected(let reply, _, let speechStartedAt) where reply == finished:
            return beginTurn(speechStartedAt: speechStartedAt, after: [])
        default:
            return playbackEventOutOfTurn(reply: finished)
        }
    }

    private func playbackEventOutOfTurn(reply: Int) -> TurnAction {
        reply >= 1 && reply <= latestReply ? .ignored(.stalePlayback(reply: reply)) : .rejected(.unknownReply(reply))
    }
}
