/// Whether voice mode waits for the wake phrase or holds a conversation.
///
/// While `waiting`, only the wake phrase counts: the person's speech goes to the phrase spotter,
/// not to the turns. Once the phrase is heard the gate is `awake`: turns follow one another
/// without it until `idleAfter` seconds pass with no speech and no turn under way, and then it
/// waits again. It performs no I/O; times are audio seconds.
public struct WakeGate: Equatable, Sendable {
    public struct Configuration: Equatable, Sendable {
        /// The phrase that wakes it, as the person says it ("hey computer").
        public var phrase: String
        /// Seconds without speech, listening, after which the conversation ends.
        public var idleAfter: Double

        public init(phrase: String, idleAfter: Double = 8) {
            self.phrase = phrase
            self.idleAfter = idleAfter
        }
    }

    public enum State: Equatable, Sendable {
        /// Waiting for the phrase.
        case waiting
        /// In a conversation; the latest speech or turn activity was at `lastActivity`.
        case awake(lastActivity: Double)
    }

    /// What the owner does after an input.
    public enum Action: Equatable, Sendable {
        case none
        /// The phrase was heard at `time`: the conversation begins (a cue, a `wake` event).
        case wake(phrase: String, time: Double)
        /// The conversation began at `time` without the phrase: a key asked for a turn, or voice
        /// mode spoke to the person (whose answer then needs no phrase).
        case open(time: Double)
        /// `idleAfter` passed without speech at `time`: back to waiting for the phrase.
        case sleep(time: Double)
    }

    public private(set) var configuration: Configuration
    public private(set) var state: State = .waiting

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether speech now goes to the phrase spotter rather than to the turns.
    public var isWaiting: Bool { state == .waiting }

    /// Takes a new phrase or idle time; a conversation under way goes on under the new idle time.
    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The spotter heard the phrase in audio ending at `time`.
    public mutating func phraseHeard(at time: Double) -> Action {
        guard state == .waiting else { return .none }
        state = .awake(lastActivity: time)
        return .wake(phrase: configuration.phrase, time: time)
    }

    /// A key asked for a turn, or a reply or message is being said, at `time`: the conversation
    /// begins as if the phrase had been heard.
    public mutating func open(at time: Double) -> Action {
        guard state == .waiting else { return .none }
        state = .awake(lastActivity: time)
        return .open(time: time)
    }

    /// One frame's worth of news: whether the detector called it speech and whether the turns
    /// are resting (`listening`, nothing pending) at audio time `time`.
    public mutating func frame(speech: Bool, turnsResting: Bool, at time: Double) -> Action {
        guard case .awake(let lastActivity) = state else { return .none }
        if speech || !turnsResting {
            state = .awake(lastActivity: time)
            return .none
        }
        guard time - lastActivity >= configuration.idleAfter else { return .none }
        state = .waiting
        return .sleep(time: time)
    }

    /// Voice mode was left (or entered afresh): the next conversation starts with the phrase.
    public mutating func voiceModeChanged() -> Action {
        state = .waiting
        return .none
    }
}
