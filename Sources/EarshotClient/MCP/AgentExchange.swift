public import EarshotProtocol

/// One tool call's exchange with the person, read from the daemon's events: the agent's message
/// is said (its reply's `speaker` events), then, when the call listens, the person's next turn is
/// awaited until its final transcript. What the person did on the way (talked over the message,
/// stopped it, cancelled their turn, dismissed voice mode) ends up in the ``Outcome``.
///
/// Every input returns the one thing the caller does next; the caller owns the clock and the
/// listen timer (``Action/startListenTimer``), and reports its expiry with ``listenTimedOut()``.
public struct AgentExchange: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// The message was accepted; `reply` is its number once its first audio played, `said`
        /// the sentences begun so far.
        case saying(reply: Int?, said: [String])
        /// Waiting for the person to start speaking.
        case listening
        /// The person's turn `turn` is under way: `transcript` once its final came, `ended` once
        /// its speech ended (`thinking`).
        case hearing(turn: Int, transcript: String?, ended: Bool)
        case finished(Outcome)
    }

    /// How the person cut the message short.
    public enum Interruption: Hashable, Sendable {
        /// They talked over it, after these words of it.
        case bargedIn(after: String)
        /// They stopped it (the stop button, `earshot stop`), after these words.
        case stopped(after: String)
    }

    public enum Outcome: Hashable, Sendable {
        /// The message was said (without listening): to its end, or cut short.
        case said(Interruption?)
        /// The person's turn, after the message (cut short or not).
        case heard(transcript: String, after: Interruption?)
        /// The person dismissed voice mode; `afterSaying`: the words of the message said by then,
        /// when it was cut short.
        case dismissed(afterSaying: String?)
        /// The person cancelled their turn.
        case cancelled(after: Interruption?)
        /// The exchange could not go on; the words say why.
        case failed(String)
    }

    public enum Action: Hashable, Sendable {
        /// Keep reading events.
        case wait
        /// The message is over: from now on, the person has the listen timeout to start speaking.
        case startListenTimer
        /// The person started speaking: their turn has no timeout.
        case stopListenTimer
        case finish(Outcome)
    }

    public let listens: Bool
    public private(set) var state: State
    private var interruption: Interruption?
    /// The voice UI's latest phase and turn, from `state` events.
    private var phase: VoiceState.Phase?
    private var turn = 0

    /// `saying`: a message was accepted by `speak`; without one the exchange starts listening
    /// (start the listen timer at once), or, when the person is already speaking turn
    /// `hearingTurn`, with that turn (no timer).
    public init(saying: Bool, listens: Bool, hearingTurn: Int? = nil) {
        self.listens = listens
        if saying {
            state = .saying(reply: nil, said: [])
        } else if let hearingTurn {
            state = .hearing(turn: hearingTurn, transcript: nil, ended: false)
        } else {
            state = .listening
        }
    }

    public mutating func eventReceived(_ event: SocketEvent) -> Action {
        if case .finished = state { return .wait }
        switch event {
        case .state(let event): return stateChanged(event.state)
        case .speaker(let event): return speaker(event)
        case .speech(let event): return speech(event)
        case .transcript(let event): return transcript(event)
        case .error(let event): return error(event)
        case .level, .device, .config, .wake: return .wait
        }
    }

    /// The listen timeout passed.
    public mutating func listenTimedOut(seconds: Double) -> Action {
        guard case .listening = state else { return .wait }
        let when = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
        return finish(.failed("No speech was heard within \(when) s; the person did not answer. Try again later, or ask in writing."))
    }

    private mutating func finish(_ outcome: Outcome) -> Action {
        state = .finished(outcome)
        return .finish(outcome)
    }

    private mutating func stateChanged(_ voice: VoiceState) -> Action {
        phase = voice.phase
        turn = voice.turn
        if voice.phase == .idle {
            if case .saying(_, let said) = state { return finish(.dismissed(afterSaying: said.joined(separator: " "))) }
            return finish(.dismissed(afterSaying: nil))
        }
        switch state {
        case .listening where voice.phase == .hearing:
            state = .hearing(turn: voice.turn, transcript: nil, ended: false)
            return .stopListenTimer
        case .hearing(let current, let transcript, _):
            switch voice.phase {
            case .hearing where voice.turn > current:
                // The person went on after an eager end: the turn is renumbered, its transcript will cover it all.
                state = .hearing(turn: voice.turn, transcript: nil, ended: false)
            case .thinking where voice.turn == current:
                if let transcript, !transcript.isEmpty { return finish(.heard(transcript: transcript, after: interruption)) }
                state = .hearing(turn: current, transcript: transcript, ended: true)
            case .listening:
                if let transcript, !transcript.isEmpty { return finish(.heard(transcript: transcript, after: interruption)) }
                // A failure's `error` event follows this state and says what went wrong.
                if voice.error != nil { return .wait }
                if transcript == "" {
                    // Nothing was recognised: the person has the whole timeout again.
                    state = .listening
                    return .startListenTimer
                }
                return finish(.cancelled(after: interruption))
            default:
                break
            }
            return .wait
        default:
            return .wait
        }
    }

    private mutating func speaker(_ event: SpeakerEvent) -> Action {
        guard case .saying(let reply, let said) = state else { return .wait }
        if reply == nil {
            guard event.phase == .start else { return .wait }
            state = .saying(reply: event.reply, said: event.text.map { [$0] } ?? [])
            return .wait
        }
        guard event.reply == reply else { return .wait }
        switch event.phase {
        case .say:
            state = .saying(reply: reply, said: said + (event.text.map { [$0] } ?? []))
            return .wait
        case .end:
            return messageOver()
        case .stop:
            let words = said.joined(separator: " ")
            if phase == .hearing {
                // A barge-in: the person's speech is already the next turn.
                interruption = .bargedIn(after: words)
                guard listens else { return finish(.said(interruption)) }
                state = .hearing(turn: turn, transcript: nil, ended: false)
                return .wait
            }
            interruption = .stopped(after: words)
            return messageOver()
        case .start, .pause, .resume:
            return .wait
        }
    }

    private mutating func messageOver() -> Action {
        guard listens else { return finish(.said(interruption)) }
        state = .listening
        return .startListenTimer
    }

    private mutating func speech(_ event: SpeechEvent) -> Action {
        guard case .listening = state, case .start = event.phase else { return .wait }
        state = .hearing(turn: event.turn, transcript: nil, ended: false)
        return .stopListenTimer
    }

    private mutating func transcript(_ event: TranscriptEvent) -> Action {
        guard event.isFinal, case .hearing(let current, _, let ended) = state, event.turn == current else { return .wait }
        if ended, !event.text.isEmpty { return finish(.heard(transcript: event.text, after: interruption)) }
        state = .hearing(turn: current, transcript: event.text, ended: ended)
        return .wait
    }

    private mutating func error(_ event: ErrorEvent) -> Action {
        switch (ProtocolError.Code(rawValue: event.code), state) {
        case (.speechFailed?, .saying), (.unknownVoice?, .saying), (.playbackNotStarted?, .saying), (.playbackTimeout?, .saying):
            return finish(.failed("The message could not be said: \(event.message)"))
        case (.transcriberUnavailable?, .hearing), (.transcriptDropped?, .hearing), (.transcriptTimeout?, .hearing):
            return finish(.failed("The person's words could not be transcribed: \(event.message)"))
        case (.soundServerLost?, _):
            return finish(.failed("The microphone and speaker went away: \(event.message)"))
        default:
            return .wait
        }
    }
}
