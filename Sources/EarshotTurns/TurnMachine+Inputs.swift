extension TurnMachine {
    /// The transcriber's final transcript for `turn`.
    ///
    /// A transcript of only whitespace means nothing was recognised: back to `listening`
    /// without asking for a reply.
    public mutating func finalTranscript(turn transcribed: Int, text: String) -> TurnAction {
        if case .transcribing = state, transcribed == turn {
            if text.allSatisfy(\.isWhitespace) {
                return enter(.listening(error: nil), effects: [])
            }
            let deadline = clock.now.advanced(by: configuration.replyTimeout)
            return enter(.awaitingReply(deadline: deadline), effects: [.requestReply(turn: turn, transcript: text)])
        }
        guard isKnown(turn: transcribed) else { return .rejected(.unknownTurn(transcribed)) }
        if case .hearing = state, transcribed == turn {
            return .rejected(.utteranceNotEnded(turn: transcribed))
        }
        return .ignored(.staleTranscript(turn: transcribed))
    }

    /// The transcriber could not take `turn`'s utterance (it is unreachable or failed). The
    /// caller keeps the audio and retries; the user is back in `listening` meanwhile.
    public mutating func transcriptionFailed(turn failed: Int) -> TurnAction {
        if case .transcribing = state, failed == turn {
            return enter(.listening(error: .transcriberUnavailable(turn: turn)), effects: [])
        }
        guard isKnown(turn: failed) else { return .rejected(.unknownTurn(failed)) }
        return .ignored(.staleTranscript(turn: failed))
    }

    /// Something wants the assistant to say `text`: the responder answering `turn`, or with
    /// `turn == nil` an unprompted announcement, accepted only while `listening`.
    ///
    /// An empty (or whitespace) answer to a turn means the responder chose not to reply: back to `listening`.
    public mutating func replyRequested(turn answered: Int?, text: String) -> TurnAction {
        guard let answered else { return unpromptedReply(text: text) }
        if case .awaitingReply = state, answered == turn {
            if text.allSatisfy(\.isWhitespace) {
                return enter(.listening(error: nil), effects: [])
            }
            return speak(text)
        }
        guard isKnown(turn: answered) else { return .rejected(.unknownTurn(answered)) }
        if answered == turn {
            switch state {
            case .hearing, .transcribing:
                return .rejected(.replyNotRequested(turn: answered))
            case .idle, .listening, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected:
                break
            }
        }
        return .ignored(.staleReply(turn: answered))
    }

    private mutating func unpromptedReply(text: String) -> TurnAction {
        switch state {
        case .idle:
            return .rejected(.voiceModeOff)
        case .listening:
            return text.allSatisfy(\.isWhitespace) ? .rejected(.emptyReply) : speak(text)
        case .hearing, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected:
            return .rejected(.cannotSpeakWhile(state.phase))
        }
    }

    /// Hands out the next reply number and asks for it to be synthesised.
    private mutating func speak(_ text: String) -> TurnAction {
        latestReply += 1
        let deadline = clock.now.advanced(by: configuration.playbackStartTimeout)
        let preparing = State.preparingSpeech(reply: latestReply, deadline: deadline)
        return enter(preparing, effects: [.synthesize(reply: latestReply, text: text)])
    }
}
