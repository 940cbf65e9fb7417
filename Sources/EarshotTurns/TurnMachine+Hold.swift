// MARK: - Hold to talk, and one-shot turns

/// A key asks for one turn, whatever voice mode is doing: held (`hold` … `release`), the turn
/// opens at the hold and ends exactly at the release, the pauses inside it ending nothing; pressed
/// once (`talk`), the machine listens for one turn ended as any other. Either one stops a reply
/// being spoken and abandons a turn under way.
///
/// Asked for while voice mode is off or muted, the turn is a one-shot: the microphone opens for
/// it, is silenced again once its utterance is over (no speech of the room then starts another
/// turn or interrupts the reply), and back in `listening` voice mode returns to off, or to muted.
extension TurnMachine {
    /// A turn asked for by key while voice mode was off or muted.
    struct OneShot: Equatable, Sendable {
        enum Rest: Equatable, Sendable {
            /// Voice mode was off: back to `idle`.
            case off
            /// The microphone was muted: back to `listening`, muted.
            case muted
        }

        var returnsTo: Rest
        /// When `talk` gives up waiting for speech; nil once its turn began, and for a hold.
        var speechDeadline: C.Instant?
        /// The utterance is over and the microphone silenced until the turn is.
        var utteranceOver = false
    }

    /// Whether the talk key is held: the turn under way ends only at the release.
    public var isKeyHeld: Bool {
        if case .keyHeld = state { true } else { false }
    }

    /// The talk key went down: a new turn opens now, with the audio from now on. A reply being
    /// spoken stops, a turn under way is abandoned; voice mode off or muted opens the microphone
    /// for this one turn. A hold while held (a key's auto-repeat) changes nothing.
    public mutating func hold() -> TurnAction {
        if case .keyHeld = state { return .ignored(.keyHeld) }
        let from = snapshot
        var effects = abandonEffects + takeMicrophone(speechDeadline: nil)
        turn += 1
        state = .keyHeld(deadline: clock.now.advanced(by: configuration.maximumUtterance))
        speechOverReply = .none
        effects.append(.beginHeldUtterance(turn: turn))
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// The talk key came up: the held turn ends now, without waiting for any silence.
    public mutating func release() -> TurnAction {
        guard case .keyHeld = state else { return .rejected(.notHeld) }
        return endHeldUtterance(.released)
    }

    /// Listen for one turn (a key that only reports its press): from off or muted the
    /// microphone opens until that turn is over, or until no speech began within `talkWait`.
    /// Over a reply or a turn being thought about, those are dropped and the machine listens.
    public mutating func talk() -> TurnAction {
        switch state {
        case .listening where !microphoneMuted:
            return .ignored(.alreadyListening)
        case .hearing, .keyHeld, .mayHaveEnded:
            return .ignored(.utteranceInProgress)
        case .idle, .listening, .transcribing, .awaitingReply, .preparingSpeech, .speaking, .bargeInSuspected, .concluding:
            let from = snapshot
            let effects = abandonEffects + takeMicrophone(speechDeadline: clock.now.advanced(by: configuration.talkWait))
            state = .listening(error: nil)
            speechOverReply = .none
            return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
        }
    }

    /// Voice mode on if it is off (a one-shot turn taken while off counts as off), else off.
    public mutating func toggle() -> TurnAction {
        if case .idle = state { return start() }
        return oneShot?.returnsTo == .off ? start() : dismiss()
    }

    /// Opens the microphone for a turn asked for by key, remembering what to return to: off
    /// (from `idle`) or muted; a one-shot already under way is kept, its microphone reopened.
    private mutating func takeMicrophone(speechDeadline: C.Instant?) -> [TurnEffect] {
        if case .idle = state {
            oneShot = OneShot(returnsTo: .off, speechDeadline: speechDeadline)
            microphoneMuted = false
            return [.openMicrophone]
        }
        if microphoneMuted {
            microphoneMuted = false
            oneShot = OneShot(returnsTo: oneShot?.returnsTo ?? .muted, speechDeadline: speechDeadline)
            return [.openMicrophone]
        }
        guard var current = oneShot else { return [] }
        let reopens = current.utteranceOver
        current.utteranceOver = false
        current.speechDeadline = speechDeadline
        oneShot = current
        return reopens ? [.openMicrophone] : []
    }

    /// The held turn ends: at the release, or at the longest utterance when no release came.
    mutating func endHeldUtterance(_ end: TurnEffect.HoldEnd) -> TurnAction {
        endUtterance(after: [.endHeldUtterance(turn: turn, end)])
    }

    /// A one-shot turn's utterance is over: the microphone is silenced until the turn is.
    mutating func oneShotUtteranceOver() -> [TurnEffect] {
        guard var current = oneShot, !current.utteranceOver else { return [] }
        current.utteranceOver = true
        oneShot = current
        return [.silenceMicrophone]
    }

    /// Back in `listening` after a one-shot turn: voice mode returns to off, or to muted.
    mutating func endOneShot() -> [TurnEffect] {
        guard let ended = oneShot else { return [] }
        oneShot = nil
        switch ended.returnsTo {
        case .off:
            state = .idle
            microphoneMuted = false
            speechOverReply = .none
            return [.closeMicrophone]
        case .muted:
            let wasMuted = microphoneMuted
            microphoneMuted = true
            return ended.utteranceOver || wasMuted ? [] : [.silenceMicrophone]
        }
    }

    /// `start` during a one-shot turn taken while off, or `unmute` during one taken while muted:
    /// voice mode stays on, unmuted, once the turn is over.
    mutating func stayOn(after ended: OneShot) -> TurnAction {
        oneShot = nil
        var effects: [TurnEffect] = []
        if ended.utteranceOver, !microphoneMuted { effects.append(.openMicrophone) }
        if ended.returnsTo == .off { effects += cue(.voiceModeOn) }
        return .transition(TurnTransition(from: snapshot, to: snapshot, effects: effects))
    }
}
