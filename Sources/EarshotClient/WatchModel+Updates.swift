public import EarshotJSON

extension WatchModel {
    /// Takes in one event the daemon pushed.
    public mutating func apply(_ event: DaemonEvent) {
        let body = event.body
        if let t = body["t"]?.doubleValue { audioTime = t }
        switch event.topic {
        case .state: apply(state: body)
        case .speech: applySpeech(body)
        case .level: applyLevel(body)
        case .error: record(errorFrom: body)
        case .device: applyDevice(body)
        case .transcript, .speaker, .config, nil: break  // Nothing the watch shows (or a kind new to this client).
        }
    }

    /// Takes in the daemon's answer to `status`.
    public mutating func apply(status: JSONValue) {
        connection = .connected
        if let state = status["state"] { apply(state: state) }
        if let audio = status["audio"] {
            self.audio.connected = audio["connected"]?.boolValue ?? self.audio.connected
            self.audio.server = audio["server"]?.stringValue ?? self.audio.server
            self.audio.source = audio["source"]?.stringValue ?? self.audio.source
            self.audio.sink = audio["sink"]?.stringValue ?? self.audio.sink
            if let time = audio["audio_time"]?.doubleValue { audioTime = time }
        }
        if let uptime = status["uptime"]?.doubleValue { self.uptime = uptime }
        if let errors = status["errors"]?.arrayValue {
            // The daemon's list is the whole truth: it holds the pushed errors too.
            self.errors = Array(errors.compactMap(Self.errorNote).suffix(Self.keptErrors))
        }
    }

    /// Marks the daemon as gone.
    public mutating func connectionLost(_ reason: String) {
        connection = .lost(reason)
        mic = nil
        speaker = nil
    }

    /// Takes in a state: a `state` event, or the `state` of a response.
    public mutating func apply(state body: JSONValue) {
        if let name = body["state"]?.stringValue { state = name }
        if let turn = body["turn"]?.integerValue { self.turn = turn }
        if let muted = body["muted"]?.boolValue { self.muted = muted }
        if let controls = body["controls"]?.arrayValue { self.controls = controls.compactMap(\.stringValue) }
        stateError = body["error"]?.stringValue
        // Levels stop coming when their source falls quiet; a stale bar would look alive.
        if state == "idle" || muted { mic = nil }
        if state != "speaking" { speaker = nil }
    }

    mutating func applySpeech(_ body: JSONValue) {
        let turn = body["turn"]?.integerValue ?? self.turn
        let t = body["t"]?.doubleValue
        switch body["phase"]?.stringValue {
        case "start":
            utterance = Utterance(turn: turn, start: t)
        case "end":
            if var current = utterance, current.turn == turn, current.end == nil {
                current.end = t
                utterance = current
            } else {
                utterance = Utterance(turn: turn, start: nil, end: t)
            }
        default:
            break
        }
    }

    mutating func applyLevel(_ body: JSONValue) {
        guard let level = body["level"]?.doubleValue else { return }
        let meter = Meter(
            level: level,
            rmsDBFS: body["rms_dbfs"]?.doubleValue,
            bands: body["bands"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        )
        if body["source"]?.stringValue == "speaker" { speaker = meter } else { mic = meter }
    }

    mutating func record(errorFrom body: JSONValue) {
        guard let note = Self.errorNote(body), !errors.contains(note) else { return }
        errors.append(note)
        if errors.count > Self.keptErrors { errors.removeFirst(errors.count - Self.keptErrors) }
    }

    mutating func applyDevice(_ body: JSONValue) {
        switch body["change"]?.stringValue {
        case "connected": audio.connected = true
        case "disconnected": audio.connected = false
        default: break
        }
        if let server = body["server"]?.stringValue { audio.server = server }
        if let source = body["source"]?.stringValue { audio.source = source }
        if let sink = body["sink"]?.stringValue { audio.sink = sink }
    }

    static func errorNote(_ body: JSONValue) -> ErrorNote? {
        guard let code = body["code"]?.stringValue else { return nil }
        return ErrorNote(code: code, message: body["message"]?.stringValue ?? code, wall: body["wall"]?.doubleValue)
    }
}
