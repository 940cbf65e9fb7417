public import EarshotPipeline

/// Everything the daemon pushes to subscribers: the pipeline's events and its own.
public enum SocketEvent: Equatable, Sendable {
    /// `state`, `speech`, `level` and the turn machine's `error` events.
    case pipeline(PipelineEvent)
    /// The sound server connected or went away, or the source or sink changed.
    case device(DeviceEvent)
    /// The sound server failed (an `error` event with `retry_in`).
    case soundServerError(SoundServerError)
    /// The configuration file was read again (SIGHUP): what changed, and what waits for a restart.
    case configReloaded(ConfigReloadEvent)
    /// What the speaker is saying (captions): a reply starting, each sentence, its end or stop.
    case speaker(SpeakerActivity)

    /// The subscription topic that selects this event.
    public var topic: EventTopic {
        switch self {
        case .pipeline(.state): .state
        case .pipeline(.speechStarted), .pipeline(.speechEnded): .speech
        case .pipeline(.level): .level
        case .pipeline(.transcript): .transcript
        case .pipeline(.error), .soundServerError: .error
        case .device: .device
        case .configReloaded: .config
        case .speaker: .speaker
        }
    }

    /// Audio time of the event.
    public var time: Double {
        switch self {
        case .pipeline(let event): event.time
        case .device(let event): event.time
        case .soundServerError(let error): error.time
        case .configReloaded(let event): event.time
        case .speaker(let activity): activity.time
        }
    }

    /// What a subscriber's queue needs to know to keep, thin or drop this event.
    public var deliveryClass: DeliveryClass {
        if case .pipeline(.level(let source, let reading)) = self {
            return .level(source, time: reading.time)
        }
        return .essential(topic)
    }
}
