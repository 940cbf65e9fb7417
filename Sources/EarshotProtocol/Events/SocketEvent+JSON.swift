public import EarshotBase

extension SocketEvent {
    /// Reads an event's object, as ``write(to:wall:)`` writes it; `wall` is not the event's
    /// (see ``wall(of:)``).
    public init(object: JSONObject) throws(MessageDecodingError) {
        guard let topic = object["event"]?.stringValue.flatMap(EventTopic.init(rawValue:)) else {
            throw MessageDecodingError(description: "not an event of a known kind: \(object["event"]?.jsonText ?? "no \"event\"")")
        }
        let what = "a \(topic.rawValue) event"
        let time = try object.required("t", in: what, \.doubleValue)
        switch topic {
        case .state:
            self = .state(StateEvent(state: try VoiceState(fields: object), time: time))
        case .speech:
            self = .speech(try Self.speech(object, time: time))
        case .transcript:
            self = .transcript(TranscriptEvent(
                turn: try object.required("turn", in: what, \.integerValue), text: try object.required("text", in: what, \.stringValue),
                isFinal: try object.required("final", in: what, \.boolValue), time: time
            ))
        case .level:
            self = .level(LevelEvent(
                source: try object.required("source", in: what, as: LevelEvent.Source.self),
                level: try object.required("level", in: what, \.doubleValue),
                rmsDBFS: try object.required("rms_dbfs", in: what, \.doubleValue),
                bands: try object.required("bands", in: what) { $0.arrayValue?.compactMap(\.doubleValue) }, time: time
            ))
        case .error:
            self = .error(ErrorEvent(
                code: try object.required("code", in: what, \.stringValue), message: try object.required("message", in: what, \.stringValue),
                retryIn: object["retry_in"]?.doubleValue, time: time
            ))
        case .speaker:
            self = .speaker(SpeakerEvent(
                phase: try object.required("phase", in: what, as: SpeakerEvent.Phase.self),
                reply: try object.required("reply", in: what, \.integerValue), turn: object["turn"]?.integerValue,
                voice: object["voice"]?.stringValue, duration: object["duration"]?.doubleValue, text: object["text"]?.stringValue,
                position: object["position"]?.doubleValue, time: time
            ))
        case .device:
            self = .device(DeviceEvent(
                change: try object.required("change", in: what, as: DeviceEvent.Change.self), source: object["source"]?.stringValue,
                sink: object["sink"]?.stringValue, server: object["server"]?.stringValue, time: time
            ))
        case .config:
            self = .config(ConfigReloadEvent(
                file: try object.required("file", in: what, \.stringValue), applied: try object.requiredStrings("applied", in: what),
                restartNeeded: try object.requiredStrings("restart_needed", in: what),
                overridden: try object.requiredStrings("overridden", in: what), time: time
            ))
        case .wake:
            self = .wake(WakeEvent(phrase: try object.required("phrase", in: what, \.stringValue), time: time))
        }
    }

    /// When the daemon sent the event (Unix seconds), if its line says.
    public static func wall(of object: JSONObject) -> Double? {
        object["wall"]?.doubleValue
    }

    private static func speech(_ object: JSONObject, time: Double) throws(MessageDecodingError) -> SpeechEvent {
        let what = "a speech event"
        let turn = try object.required("turn", in: what, \.integerValue)
        switch try object.required("phase", in: what, \.stringValue) {
        case "start":
            return SpeechEvent(turn: turn, phase: .start(audioStart: try object.required("audio_start", in: what, \.doubleValue)), time: time)
        case "end":
            return SpeechEvent(turn: turn, phase: .end(reason: try object.required("reason", in: what, as: SpeechEvent.EndReason.self)), time: time)
        case "eager_end":
            return SpeechEvent(turn: turn, phase: .eagerEnd, time: time)
        case "resumed":
            return SpeechEvent(turn: turn, phase: .resumed, time: time)
        case let phase:
            throw MessageDecodingError(description: "a speech event has an unknown \"phase\": \(phase)")
        }
    }

    /// The event as one JSON line: `event` (its topic's name) first, then its keys in the
    /// documented order, then `wall` (Unix seconds, 6 decimals) when given, and `t` (audio
    /// seconds, 2 decimals) last. The socket's form has `wall`; `earshot replay`'s has not.
    public func jsonLine(wall: Double? = nil) -> [UInt8] {
        var json = JSONLineWriter()
        write(to: &json, wall: wall)
        return json.bytes
    }

    /// Appends the event as one JSON line (see ``jsonLine(wall:)``).
    public func write(to json: inout JSONLineWriter, wall: Double? = nil) {
        json.beginObject()
        json.key("event")
        json.string(topic.rawValue)
        switch self {
        case .state(let event):
            json.members(event.state.fields)
        case .speech(let event):
            Self.write(event, to: &json)
        case .transcript(let event):
            json.key("turn")
            json.integer(event.turn)
            json.key("final")
            json.bool(event.isFinal)
            json.key("text")
            json.string(event.text)
        case .level(let event):
            Self.write(event, to: &json)
        case .error(let event):
            json.key("code")
            json.string(event.code)
            json.key("message")
            json.string(event.message)
            if let retryIn = event.retryIn {
                // As few decimals as say it exactly, at most 3: `0.5`, `2.0`, `0.125`.
                json.key("retry_in")
                json.number(retryIn, decimals: FixedDecimal.shortestDecimals(retryIn, maximum: 3))
            }
        case .speaker(let event):
            Self.write(event, to: &json)
        case .device(let event):
            json.key("change")
            json.string(event.change.rawValue)
            json.key("source")
            json.optionalString(event.source)
            json.key("sink")
            json.optionalString(event.sink)
            json.key("server")
            json.optionalString(event.server)
        case .config(let event):
            Self.write(event, to: &json)
        case .wake(let event):
            json.key("phrase")
            json.string(event.phrase)
        }
        if let wall {
            json.key("wall")
            json.number(wall, decimals: 6)
        }
        json.key("t")
        json.number(time, decimals: 2)
        json.endObject()
        json.endLine()
    }

    private static func write(_ event: SpeechEvent, to json: inout JSONLineWriter) {
        json.key("phase")
        switch event.phase {
        case .start(let audioStart):
            json.string("start")
            json.key("turn")
            json.integer(event.turn)
            json.key("audio_start")
            json.number(audioStart, decimals: 2)
        case .end(let reason):
            json.string("end")
            json.key("turn")
            json.integer(event.turn)
            json.key("reason")
            json.string(reason.rawValue)
        case .eagerEnd:
            json.string("eager_end")
            json.key("turn")
            json.integer(event.turn)
        case .resumed:
            json.string("resumed")
            json.key("turn")
            json.integer(event.turn)
        }
    }

    private static func write(_ event: LevelEvent, to json: inout JSONLineWriter) {
        json.key("source")
        json.string(event.source.rawValue)
        json.key("level")
        json.number(event.level, decimals: 3)
        json.key("rms_dbfs")
        json.number(event.rmsDBFS, decimals: 1)
        json.key("bands")
        json.beginArray()
        // Indexed, not iterated: a debug build's unspecialized iterator allocates for each
        // element, and the daemon encodes 60 of these a second on its audio thread.
        var index = 0
        while index < event.bands.count {
            json.element()
            json.number(event.bands[index], decimals: 3)
            index += 1
        }
        json.endArray()
    }

    private static func write(_ event: SpeakerEvent, to json: inout JSONLineWriter) {
        json.key("phase")
        json.string(event.phase.rawValue)
        json.key("reply")
        json.integer(event.reply)
        if let turn = event.turn {
            json.key("turn")
            json.integer(turn)
        }
        if let voice = event.voice {
            json.key("voice")
            json.string(voice)
        }
        if let duration = event.duration {
            json.key("duration")
            json.number(duration, decimals: 2)
        }
        if let text = event.text {
            json.key("text")
            json.string(text)
        }
        if let position = event.position {
            json.key("position")
            json.number(position, decimals: 2)
        }
    }

    private static func write(_ event: ConfigReloadEvent, to json: inout JSONLineWriter) {
        json.key("change")
        json.string("reloaded")
        json.key("file")
        json.string(event.file)
        json.key("applied")
        write(names: event.applied, to: &json)
        json.key("restart_needed")
        write(names: event.restartNeeded, to: &json)
        json.key("overridden")
        write(names: event.overridden, to: &json)
    }

    private static func write(names: [String], to json: inout JSONLineWriter) {
        json.beginArray()
        for name in names {
            json.element()
            json.string(name)
        }
        json.endArray()
    }
}
