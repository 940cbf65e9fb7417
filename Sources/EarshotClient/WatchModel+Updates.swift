extension WatchModel {
    /// Takes in one event the daemon pushed.
    public mutating func apply(_ event: DaemonEvent) {
        let body = event.body
        if let t = body["t"]?.double { audioTime = t }
        switch event.kind {
        case "state": apply(state: body)
        case "speech": applySpeech(body)
        case "level": applyLevel(body)
        case "error": record(errorFrom: body)
        case "device": applyDevice(body)
        default: break  // A kind this client does not know yet: nothing to show.
        }
    }

    /// Takes in the daemon's answer to `status`.
    public mutating func apply(status: JSON) {
        connection = .connected
        if let state = status["state"] { apply(state: state) }
        if let audio = status["audio"] {
            self.audio.connected = audio["connected"]?.bool ?? self.audio.connected
            self.audio.server = audio["server"]?.string ?? self.audio.server
            self.audio.source = audio["source"]?.string ?? self.audio.source
            self.audio.sink = audio["sink"]?.string ?? self.audio.sink
            if let time = audio["audio_time"]?.double { audioTime = time }
        }
        if let uptime = status["uptime"]?.double { self.uptime = uptime }
        if let errors = status["errors"]?.array {
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
    public mutating func apply(state body: JSON) {
        if let name = body["state"]?.string { state = name }
        if let turn = body["turn"]?.int { self.turn = turn }
        if let muted = body["muted"]?.bool { self.muted = muted }
        if let controls = body["controls"]?.array { self.controls = controls.compactMap(\.string) }
        stateError = body["error"]?.string
        // Levels stop coming when their source falls quiet; a stale bar would look alive.
        if state == "idle" || muted { mic = nil }
        if state != "speaking" { speaker = nil }
    }

    mutating func applySpeech(_ body: JSON) {
        let turn = body["turn"]?.int ?? self.turn
        let t = body["t"]?.double
        switch body["phase"]?.string {
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

    mutating func applyLevel(_ body: JSON) {
        guard let level = body["level"]?.double else { return }
        let meter = Meter(
            level: level,
            rmsDBFS: body["rms_dbfs"]?.double,
            bands: body["bands"]?.array?.compactMap(\.double) ?? []
        )
        if body["source"]?.string == "speaker" { speaker = meter } else { mic = meter }
    }

    mutating func record(errorFrom body: JSON) {
        guard let note = Self.errorNote(body), !errors.contains(note) else { return }
        errors.append(note)
        if errors.count > Self.keptErrors { errors.removeFirst(errors.count - Self.keptErrors) }
    }

    mutating func applyDevice(_ body: JSON) {
        switch body["change"]?.string {
        case "connected": audio.connected = true
        case "disconnected": audio.connected = false
        default: break
        }
        if let server = body["server"]?.string { audio.server = server }
        if let source = body["source"]?.string { audio.source = source }
        if let sink = body["sink"]?.string { audio.sink = sink }
    }

    static func errorNote(_ body: JSON) -> ErrorNote? {
        guard let code = body["code"]?.string else { return nil }
        return ErrorNote(code: code, message: body["message"]?.string ?? code, wall: body["wall"]?.double)
    }
}
