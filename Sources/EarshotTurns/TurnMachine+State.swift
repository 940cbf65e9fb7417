extension TurnMachine {
    /// Where the machine is. Each case holds what is needed to leave it; every case except
    /// `idle` and `listening` holds a deadline so no peer can keep it waiting forever.
    enum State: Equatable, Sendable {
        /// Voice mode is off.
        case idle
        /// The microphone is open (unless muted) and nobody is speaking.
        case listening(error: TurnError?)
        /// The user is speaking the current turn; `deadline` ends an over-long utterance.
        case hearing(deadline: C.Instant)
        /// The current turn's utterance ended; its final transcript is due by `deadline`.
        case transcribing(deadline: C.Instant)
        /// The responder has the transcript; its reply is due by `deadline`.
        case awaitingReply(deadline: C.Instant)
        /// `reply` is being synthesised; audio is due to start by `deadline`.
        case preparingSpeech(reply: Int, deadline: C.Instant)
        /// `reply` is playing; it should finish by `deadline`.
        case speaking(reply: Int, deadline: C.Instant)
        /// `reply` is ducked because the user started talking at `speechStartedAt`;
        /// `playbackDeadline` is kept for when the interruption turns out to be false.
        case bargeInSuspected(reply: Int, playbackDeadline: C.Instant, speechStartedAt: C.Instant)

        var phase: TurnPhase {
            switch self {
            case .idle: .idle
            case .listening: .listening
            case .hearing: .hearing
            case .transcribing, .awaitingReply, .preparingSpeech: .thinking
            case .speaking, .bargeInSuspected: .speaking
            }
        }

        var error: TurnError? {
            if case .listening(let error) = self { error } else { nil }
        }

        /// The reply being synthesised or played, if any.
        var replyInFlight: Int? {
            switch self {
            case .preparingSpeech(let reply, _), .speaking(let reply, _), .bargeInSuspected(let reply, _, _): reply
            case .idle, .listening, .hearing, .transcribing, .awaitingReply: nil
            }
        }
    }
}
