public import EarshotAudio
public import EarshotProtocol

extension SocketEvent {
    /// The pipeline's event as front ends receive it.
    public init(_ event: PipelineEvent) {
        switch event {
        case .state(let snapshot, let time):
            self = .state(StateEvent(state: VoiceState(snapshot), time: time))
        case .speechStarted(let turn, let audioStart, let time):
            self = .speech(SpeechEvent(turn: turn, phase: .start(audioStart: audioStart), time: time))
        case .speechEnded(let turn, let reason, let time):
            self = .speech(SpeechEvent(turn: turn, phase: .end(reason: SpeechEvent.EndReason(reason)), time: time))
        case .speechEagerEnd(let turn, let time):
            self = .speech(SpeechEvent(turn: turn, phase: .eagerEnd, time: time))
        case .speechResumed(let turn, let time):
            self = .speech(SpeechEvent(turn: turn, phase: .resumed, time: time))
        case .level(let source, let reading):
            self = .level(LevelEvent(source: LevelEvent.Source(source), reading: reading))
        case .transcript(let turn, let text, let final, let time):
            self = .transcript(TranscriptEvent(turn: turn, text: text, isFinal: final, time: time))
        case .error(let error, let message, let retryIn, let time):
            // The pipeline's retries are announced to a tenth of a second.
            let retry = retryIn.map { ($0 * 10).rounded() / 10 }
            self = .error(ErrorEvent(code: ProtocolError.Code(error), message: message, retryIn: retry, time: time))
        case .wake(let phrase, let time):
            self = .wake(WakeEvent(phrase: phrase, time: time))
        }
    }
}

extension SpeechEvent.EndReason {
    public init(_ reason: Endpointer.EndReason) {
        switch reason {
        case .finished: self = .finished
        case .silence: self = .silence
        case .unfinished: self = .unfinished
        case .streamEnd: self = .streamEnd
        case .falseInterruption: self = .falseInterruption
        case .released: self = .released
        case .holdLimit: self = .holdLimit
        }
    }
}

extension LevelEvent {
    /// The level meter's reading of `source`.
    public init(source: Source, reading: LevelReading) {
        self.init(
            source: source,
            level: Double(reading.level),
            rmsDBFS: Double(reading.rmsDBFS),
            bands: (0..<LevelReading.Bands.count).map { Double(reading.bands[$0]) },
            time: reading.time
        )
    }
}

extension LevelEvent.Source {
    public init(_ source: LevelSource) {
        switch source {
        case .mic: self = .mic
        case .speaker: self = .speaker
        }
    }
}
