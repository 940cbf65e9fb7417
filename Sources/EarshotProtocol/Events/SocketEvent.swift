/// Every event Earshot sends: pushed to the daemon's subscribers, and printed by
/// `earshot replay`. Each kind's name on the wire (its `"event"`) is the name of its topic.
public enum SocketEvent: Hashable, Sendable {
    /// What the voice UI shows changed.
    case state(StateEvent)
    /// An utterance of the person began or ended.
    case speech(SpeechEvent)
    /// What the transcriber heard.
    case transcript(TranscriptEvent)
    /// A level reading for the voice blob.
    case level(LevelEvent)
    /// Something a person should know went wrong.
    case error(ErrorEvent)
    /// What the speaker is saying.
    case speaker(SpeakerEvent)
    /// The sound server connected or went away, or the source or sink changed.
    case device(DeviceEvent)
    /// The configuration file was read again (SIGHUP): what changed, and what waits for a restart.
    case config(ConfigReloadEvent)
    /// The wake phrase was heard: a conversation begins.
    case wake(WakeEvent)

    /// The subscription topic that selects this event.
    public var topic: EventTopic {
        switch self {
        case .state: .state
        case .speech: .speech
        case .transcript: .transcript
        case .level: .level
        case .error: .error
        case .speaker: .speaker
        case .device: .device
        case .config: .config
        case .wake: .wake
        }
    }

    /// Audio time of the event.
    public var time: Double {
        switch self {
        case .state(let event): event.time
        case .speech(let event): event.time
        case .transcript(let event): event.time
        case .level(let event): event.time
        case .error(let event): event.time
        case .speaker(let event): event.time
        case .device(let event): event.time
        case .config(let event): event.time
        case .wake(let event): event.time
        }
    }
}

/// What a subscriber can ask for; every socket event belongs to exactly one topic, whose name is
/// also the event's kind (its `"event"` key).
public enum EventTopic: String, Hashable, Sendable, CaseIterable, Comparable {
    case state, speech, transcript, speaker, level, error, device, config, wake

    /// The topics in their documented order, which is also how responses list them.
    public static func < (lhs: EventTopic, rhs: EventTopic) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
