public import EarshotJSON
public import EarshotProtocol

extension WatchModel {
    /// Takes in one event the daemon pushed.
    public mutating func apply(_ event: DaemonEvent) {
        // A kind new to this client (or one it cannot read) shows nothing.
        guard let socketEvent = event.event else { return }
        audioTime = socketEvent.time
        switch socketEvent {
        case .state(let state): apply(state: state.state)
        case .speech(let speech): apply(speech)
        case .level(let level): apply(level)
        case .error(let error): record(ErrorNote(code: error.code, message: error.message, wall: event.wall))
        case .device(let device): apply(device)
        case .transcript, .speaker, .config: break  // Nothing the watch shows.
        }
    }

    /// Takes in the daemon's answer to `status`.
    public mutating func apply(status: DaemonStatus) {
        connection = .connected
        if let state = status.state { apply(state: state) }
        if let audio = status.audio {
            self.audio.connected = audio.connected ?? self.audio.connected
            self.audio.server = audio.server ?? self.audio.server
            self.audio.source = audio.source?.name ?? self.audio.source
            self.audio.sink = audio.sink?.name ?? self.audio.sink
            if let time = audio.audioTime { audioTime = time }
        }
        if let uptime = status.uptime { self.uptime = uptime }
        if let errors = status.errors {
            // The daemon's list is the whole truth: it holds the pushed errors too.
            self.errors = errors.suffix(Self.keptErrors).map { ErrorNote(code: $0.code, message: $0.message, wall: $0.wall) }
        }
    }

    /// Takes in the JSON of the daemon's answer to `status` (its result keys; others are ignored).
    public mutating func apply(status: JSONValue) {
        apply(status: DaemonStatus(fields: status.objectValue ?? [:]))
    }

    /// Marks the daemon as gone.
    public mutating func connectionLost(_ reason: String) {
        connection = .lost(reason)
        mic = nil
        speaker = nil
    }

    /// Takes in a state: a `state` event, or the `state` of a response.
    public mutating func apply(state voiceState: VoiceState) {
        state = voiceState.phase.rawValue
        turn = voiceState.turn
        muted = voiceState.muted
        controls = voiceState.controls.map(\.rawValue)
        stateError = voiceState.error
        // Levels stop coming when their source falls quiet; a stale bar would look alive.
        if state == "idle" || muted { mic = nil }
        if state != "speaking" { speaker = nil }
    }

    mutating func apply(_ speech: SpeechEvent) {
        switch speech.phase {
        case .start:
            utterance = Utterance(turn: speech.turn, start: speech.time)
        case .end:
            if var current = utterance, current.turn == speech.turn, current.end == nil {
                current.end = speech.time
                utterance = current
            } else {
                utterance = Utterance(turn: speech.turn, start: nil, end: speech.time)
            }
        }
    }

    mutating func apply(_ level: LevelEvent) {
        let meter = Meter(level: level.level, rmsDBFS: level.rmsDBFS, bands: level.bands)
        switch level.source {
        case .speaker: speaker = meter
        case .mic: mic = meter
        }
    }

    mutating func record(_ note: ErrorNote) {
        guard !errors.contains(note) else { return }
        errors.append(note)
        if errors.count > Self.keptErrors { errors.removeFirst(errors.count - Self.keptErrors) }
    }

    mutating func apply(_ device: DeviceEvent) {
        switch device.change {
        case .connected: audio.connected = true
        case .disconnected: audio.connected = false
        case .source, .sink: break
        }
        if let server = device.server { audio.server = server }
        if let source = device.source { audio.source = source }
        if let sink = device.sink { audio.sink = sink }
    }
}
