public import EarshotJSON
public import EarshotTurns

extension PipelineEvent {
    /// Appends this event as one JSON line: `event` first, `t` last, fixed number formats.
    public func write(to json: inout JSONLineWriter) {
        write(to: &json, wall: nil)
    }

    /// Appends this event as one JSON line, with `"wall"` (Unix seconds, 6 decimals) just before
    /// `"t"` when `wall` is given: the socket's form of the event.
    public func write(to json: inout JSONLineWriter, wall: Double?) {
        writeFields(to: &json)
        if let wall {
            json.key("wall")
            json.number(wall, decimals: 6)
        }
        json.key("t")
        json.number(time, decimals: 2)
        json.endObject()
        json.endLine()
    }

    /// Opens the object and writes every key before `wall` and `t`.
    private func writeFields(to json: inout JSONLineWriter) {
        json.beginObject()
        json.key("event")
        switch self {
        case .state(let snapshot, _):
            json.string("state")
            json.key("state")
            json.string(snapshot.phase.rawValue)
            json.key("turn")
            json.integer(snapshot.turn)
            json.key("muted")
            json.bool(snapshot.muted)
            json.key("controls")
            json.beginArray()
            for name in snapshot.controls.names {
                json.element()
                json.string(name)
            }
            json.endArray()
            if let error = snapshot.error {
                json.key("error")
                json.string(error.code)
            }
        case .speechStarted(let turn, let audioStart, _):
            json.string("speech")
            json.key("phase")
            json.string("start")
            json.key("turn")
            json.integer(turn)
            json.key("audio_start")
            json.number(audioStart, decimals: 2)
        case .speechEnded(let turn, let reason, _):
            json.string("speech")
            json.key("phase")
            json.string("end")
            json.key("turn")
            json.integer(turn)
            json.key("reason")
            json.string(reason.rawValue)
        case .level(let source, let reading):
            json.string("level")
            json.key("source")
            json.string(source.rawValue)
            json.key("level")
            json.number(Double(reading.level), decimals: 3)
            json.key("rms_dbfs")
            json.number(Double(reading.rmsDBFS), decimals: 1)
            json.key("bands")
            json.beginArray()
            for band in 0..<type(of: reading.bands).count {
                json.element()
                json.number(Double(reading.bands[band]), decimals: 3)
            }
            json.endArray()
        case .transcript(let turn, let text, let final, _):
            json.string("transcript")
            json.key("turn")
            json.integer(turn)
            json.key("final")
            json.bool(final)
            json.key("text")
            json.string(text)
        case .error(let code, let message, let retryIn, _):
            json.string("error")
            json.key("code")
            json.string(code)
            json.key("message")
            json.string(message)
            if let retryIn {
                json.key("retry_in")
                json.number(retryIn, decimals: 1)
            }
        }
    }
}

extension TurnError {
    /// A stable machine-readable name for front ends.
    public var code: String {
        switch self {
        case .transcriptTimedOut: "transcript_timeout"
        case .transcriberUnavailable: "transcriber_unavailable"
        case .replyTimedOut: "reply_timeout"
        case .playbackDidNotStart: "playback_not_started"
        case .playbackTimedOut: "playback_timeout"
        }
    }
}
