/// The turn state machine behind the voice UI.
///
/// It performs no I/O. Each input is a `mutating` method returning a ``TurnAction`` that
/// says what the caller (an actor owning the microphone, transcriber, responder and player)
/// must do. Time comes only from `clock.now`; call ``tick()`` regularly (every audio frame
/// is fine: it does not allocate when nothing is due), or sleep until ``nextDeadline``.
public struct TurnMachine<C: Clock>: Sendable {
    /// The clock deadlines are measured on.
    public let clock: C
    /// The timeouts in force.
    public private(set) var configuration: Configuration

    var state: State = .idle
    var microphoneMuted = false
    /// Where the detector's confirmation of speech heard over a reply stands.
    var speechOverReply = SpeechOverReply.none
    var turn = 0
    var latestReply = 0
    /// A turn asked for by key (`hold`, `talk`) while voice mode was off or muted; nil otherwise.
    var oneShot: OneShot?
    /// The turn the person last ended by falling silent, and when the end was decided.
    var silentEnd: (turn: Int, at: C.Instant)?

    /// Creates a machine in `idle`.
    public init(clock: C, configuration: Configuration) {
        self.clock = clock
        self.configuration = configuration
    }

    /// Takes new timeouts; a deadline already set stands, the next one uses them.
    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// What front ends render.
    public var snapshot: TurnSnapshot {
        TurnSnapshot(phase: state.phase, turn: turn, muted: microphoneMuted, error: state.error)
    }

    /// The reply being synthesised, held or played, if any.
    public var replyInFlight: Int? {
        state.reply?.number
    }

    /// Whether ``speechHeard()`` has anything to do: a barge-in is suspected, and each frame of
    /// speech tells whether the person goes on.
    public var awaitsSpeech: Bool {
        if case .bargeInSuspected = state { true } else { false }
    }

    /// When ``tick()`` next has something to do; `nil` in the resting phases (`idle`, `listening`).
    public var nextDeadline: C.Instant? {
        switch state {
        case .idle:
            nil
        case .listening:
            oneShot?.speechDeadline
        case .hearing(let deadline), .keyHeld(let deadline), .transcribing(let deadline), .awaitingReply(let deadline),
            .preparingSpeech(_, let deadline), .speaking(_, let deadline), .mayHaveEnded(_, let deadline),
            .concluding(let deadline):
            deadline
        case .bargeInSuspected(_, _, let speechStartedAt, let lastHeardAt):
            // Confirmed once the minimum has passed with the person still speaking; a false
            // alarm once they have been silent long enough, whichever comes first.
            min(
                max(speechStartedAt.advanced(by: configuration.minimumInterruption), lastHeardAt),
                lastHeardAt.advanced(by: configuration.falseInterruptionSilence)
            )
        }
    }

    /// Moves to `newState` and reports the transition.
    /// Back in `listening`, a one-shot turn is over: voice mode goes back to off or muted.
    mutating func enter(_ newState: State, effects: [TurnEffect]) -> TurnAction {
        let from = snapshot
        state = newState
        speechOverReply = .none
        var effects = effects
        if case .listening = newState { effects += endOneShot() }
        return .transition(TurnTransition(from: from, to: snapshot, effects: effects))
    }

    /// Starts the next turn in `hearing`, the speech having begun at `speechStartedAt`. Speech the
    /// detector confirmed is announced now; after a barge-in confirmed before the detector did, it
    /// is announced when the detector does (``utteranceStarted()``).
    mutating func beginTurn(speechStartedAt: C.Instant, after effects: [TurnEffect], detectorConfirmed: Bool) -> TurnAction {
        let from = snapshot
        turn += 1
        oneShot?.speechDeadline = nil
        state = .hearing(deadline: speechStartedAt.advanced(by: configuration.maximumUtterance))
        speechOverReply = detectorConfirmed ? .none : .awaitingDetector
        let announced: [TurnEffect] = detectorConfirmed ? [.announceSpeech] : []
        return .transition(TurnTransition(from: from, to: snapshot, effects: announced + effects + [.beginUtterance(turn: turn)]))
    }

    /// Starts the next turn from a confirmed barge-in.
    mutating func beginTurnAfterBargeIn(speechStartedAt: C.Instant, after effects: [TurnEffect]) -> TurnAction {
        let rejoin = rejoinEffects(speechStartedAt: speechStartedAt)
        return beginTurn(speechStartedAt: speechStartedAt, after: effects + rejoin, detectorConfirmed: speechOverReply == .confirmedByDetector)
    }

    /// Speech beginning at `speechStartedAt` while the current turn's answer is pending or playing
    /// goes on with that turn when its end was decided by the person's silence at most
    /// `rejoinWindow` before: the silence was a pause inside what they were saying.
    func rejoinEffects(speechStartedAt: C.Instant) -> [TurnEffect] {
        guard let window = configuration.rejoinWindow, let silentEnd, silentEnd.turn == turn,
            silentEnd.at.duration(to: speechStartedAt) <= window
        else { return [] }
        return [.rejoinUtterance(from: turn, turn: turn + 1)]
    }

    /// What abandoning the work pending in the current state takes.
    var abandonEffects: [TurnEffect] {
        switch state {
        case .idle, .listening, .concluding:
            []
        case .hearing, .keyHeld, .transcribing:
            [.discardUtterance(turn: turn)]
        case .mayHaveEnded(let preparation, _):
            [.discardUtterance(turn: turn)] + abandonEffects(preparation)
        case .awaitingReply:
            [.discardReply(turn: turn)]
        case .preparingSpeech(let reply, _), .speaking(let reply, _), .bargeInSuspected(let reply, _, _, _):
            stopEffects(reply)
        }
    }

    /// What abandoning `reply` takes: its playback stops, and a responder still giving its text
    /// is told to stop too.
    func stopEffects(_ reply: Reply) -> [TurnEffect] {
        [.stopPlayback(reply: reply.number)] + discardTextEffects(reply)
    }

    /// What a reply ending while its text is still coming takes: the responder stops giving it.
    func discardTextEffects(_ reply: Reply) -> [TurnEffect] {
        guard reply.awaitsText, let answered = reply.turn else { return [] }
        return [.discardReply(turn: answered)]
    }

    /// The reply number a voice preview's playback reports carry: the machine hands out replies
    /// from 1, and never waits for a preview.
    public static var previewReply: Int { 0 }

    /// Whether `turn` names a turn that has already begun.
    func isKnown(turn candidate: Int) -> Bool {
        candidate >= 1 && candidate <= turn
    }
}

extension TurnMachine where C.Duration == Swift.Duration {
    /// Creates a machine in `idle` with the ``Configuration/standard`` timeouts.
    public init(clock: C) {
        self.init(clock: clock, configuration: .standard)
    }
}

extension TurnMachine {
    /// The timeouts that keep every phase except `idle` and `listening` from waiting forever.
    public struct Configuration: Equatable, Sendable {
        /// How long the user must keep talking over the assistant before a suspected barge-in
        /// is confirmed and playback stops. Shorter catches interruptions faster; longer
        /// survives coughs and "mm-hm". Default 0.3 s.
        public var minimumInterruption: C.Duration
        /// How long a suspected barge-in may fall silent before it is taken for a false alarm
        /// (a cough, a click, an "mm") and the reply resumes. Default 80 ms.
        public var falseInterruptionSilence: C.Duration
        /// The longest single utterance; after it the utterance is ended as if the user had
        /// paused (or released the key), so a stuck voice activity detector or a release that never
        /// comes cannot hold the turn. Default 60 s.
        public var maximumUtterance: C.Duration
        /// How long a one-shot `talk` waits for speech to begin before voice mode goes back to
        /// what it was. Default 8 s.
        public var talkWait: C.Duration
        /// How long to wait for the final transcript after the user stops. Default 5 s.
        public var transcriptTimeout: C.Duration
        /// How long to wait for the responder's reply after the transcript. Default 15 s.
        public var replyTimeout: C.Duration
        /// How long synthesis may take before audio starts playing. Default 10 s.
        public var playbackStartTimeout: C.Duration
        /// A watchdog for playback that never reports finishing; longer than any sensible
        /// spoken reply. Default 5 minutes.
        public var maximumPlayback: C.Duration
        /// Mark voice mode starting and ending with a cue. Default off.
        public var playsCues = false
        /// Speech beginning this soon after the person's silence ended a turn, while its answer is
        /// still pending or playing, goes on with that turn (``TurnEffect/rejoinUtterance(from:turn:)``):
        /// the silence was a pause in the middle of a sentence. Nil: never. Default 1.2 s, longer
        /// than a pause that outlasts the finished-turn silence usually goes on after it.
        public var rejoinWindow: C.Duration?

        public init(
            minimumInterruption: C.Duration,
            falseInterruptionSilence: C.Duration,
            maximumUtterance: C.Duration,
            talkWait: C.Duration,
            transcriptTimeout: C.Duration,
            replyTimeout: C.Duration,
            playbackStartTimeout: C.Duration,
            maximumPlayback: C.Duration
        ) {
            self.minimumInterruption = minimumInterruption
            self.falseInterruptionSilence = falseInterruptionSilence
            self.maximumUtterance = maximumUtterance
            self.talkWait = talkWait
            self.transcriptTimeout = transcriptTimeout
            self.replyTimeout = replyTimeout
            self.playbackStartTimeout = playbackStartTimeout
            self.maximumPlayback = maximumPlayback
        }
    }
}

extension TurnMachine.Configuration where C.Duration == Swift.Duration {
    /// The defaults documented on each property.
    public static var standard: Self {
        var standard = Self(
            minimumInterruption: .milliseconds(300),
            falseInterruptionSilence: .milliseconds(80),
            maximumUtterance: .seconds(60),
            talkWait: .seconds(8),
            transcriptTimeout: .seconds(5),
            replyTimeout: .seconds(15),
            playbackStartTimeout: .seconds(10),
            maximumPlayback: .seconds(300)
        )
        standard.rejoinWindow = .milliseconds(1200)
        return standard
    }
}

extension TurnMachine {
    /// Speech heard over a reply is a suspected barge-in before the detector confirms it is
    /// speech (`onsetSuspected`), and front ends hear of it only once both the detector and the
    /// interruption are confirmed, whichever comes last.
    enum SpeechOverReply: Equatable, Sendable {
        case none
        /// The detector confirmed the speech while the barge-in was still suspected.
        case confirmedByDetector
        /// The barge-in was confirmed first: the turn began; the detector's confirmation is due.
        case awaitingDetector
    }

    /// A reply the machine handed out and is not done with.
    struct Reply: Equatable, Sendable {
        var number: Int
        /// The turn it answers; nil for an unprompted reply.
        var turn: Int?
        /// More of its text is still to come (a responder still answering).
        var awaitsText: Bool
    }

    /// How far the answer to a turn that may be over has been prepared.
    enum Preparation: Equatable, Sendable {
        /// The final transcript of the utterance so far is due.
        case transcribing
        /// The responder has the transcript; its reply is due.
        case awaitingReply
        /// The reply is being synthesised, held unheard until the end is confirmed.
        case held(Reply)
        /// Nothing to answer: nothing was recognised, the responder chose not to reply, or the
        /// held reply gave no audio.
        case nothingToSay
        /// The transcriber could not take the utterance.
        case transcriptionFailed
    }

    /// Where the machine is. Each case holds what is needed to leave it; every case except
    /// `idle` and `listening` holds a deadline so no peer can keep it waiting forever.
    enum State: Equatable, Sendable {
        /// Voice mode is off.
        case idle
        /// The microphone is open (unless muted) and nobody is speaking.
        case listening(error: TurnError?)
        /// The user is speaking the current turn; `deadline` ends an over-long utterance.
        case hearing(deadline: C.Instant)
        /// The user holds the talk key: the current turn opened at the hold and ends at the
        /// release, whatever pauses it has; `deadline` ends a hold whose release never comes.
        case keyHeld(deadline: C.Instant)
        /// The current turn's utterance ended; its final transcript is due by `deadline`.
        case transcribing(deadline: C.Instant)
        /// The responder has the transcript; its reply is due by `deadline`.
        case awaitingReply(deadline: C.Instant)
        /// `reply` is being synthesised; audio is due to start by `deadline`.
        case preparingSpeech(Reply, deadline: C.Instant)
        /// `reply` is playing; it should finish by `deadline`.
        case speaking(Reply, deadline: C.Instant)
        /// `reply` is paused because the user started talking at `speechStartedAt`, last heard at
        /// `lastHeardAt`; `playbackDeadline` is kept for when the interruption turns out to be false.
        case bargeInSuspected(Reply, playbackDeadline: C.Instant, speechStartedAt: C.Instant, lastHeardAt: C.Instant)
        /// The user fell silent where the turn may be over (an eager end): its answer is being
        /// prepared as `preparation` says, and nothing plays until the end is confirmed. Shown as
        /// `hearing`; `deadline` is the utterance's own, as in `hearing`.
        case mayHaveEnded(Preparation, deadline: C.Instant)
        /// The turn ended with nothing to answer, found out before its end was confirmed (nothing
        /// was recognised, the responder chose not to reply). Shown as `thinking` until
        /// `deadline`, the moment it began, so that every turn's end is seen decided.
        case concluding(deadline: C.Instant)

        var phase: TurnPhase {
            switch self {
            case .idle: .idle
            case .listening: .listening
            case .hearing, .keyHeld, .mayHaveEnded: .hearing
            case .transcribing, .awaitingReply, .preparingSpeech, .concluding: .thinking
            case .speaking, .bargeInSuspected: .speaking
            }
        }

        var error: TurnError? {
            if case .listening(let error) = self { error } else { nil }
        }

        /// The reply being synthesised or played, if any.
        var reply: Reply? {
            switch self {
            case .preparingSpeech(let reply, _), .speaking(let reply, _), .bargeInSuspected(let reply, _, _, _),
                .mayHaveEnded(.held(let reply), _):
                reply
            case .idle, .listening, .hearing, .keyHeld, .transcribing, .awaitingReply, .mayHaveEnded, .concluding: nil
            }
        }

        /// The same state with `reply` in place of the reply it holds.
        func replacing(_ reply: Reply) -> State {
            switch self {
            case .preparingSpeech(_, let deadline): .preparingSpeech(reply, deadline: deadline)
            case .speaking(_, let deadline): .speaking(reply, deadline: deadline)
            case .bargeInSuspected(_, let playbackDeadline, let speechStartedAt, let lastHeardAt):
                .bargeInSuspected(reply, playbackDeadline: playbackDeadline, speechStartedAt: speechStartedAt, lastHeardAt: lastHeardAt)
            case .mayHaveEnded(.held, let deadline): .mayHaveEnded(.held(reply), deadline: deadline)
            case .idle, .listening, .hearing, .keyHeld, .transcribing, .awaitingReply, .mayHaveEnded, .concluding: self
            }
        }
    }
}
