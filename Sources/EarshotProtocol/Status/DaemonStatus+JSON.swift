public import EarshotBase

/// `status`'s keys (PROTOCOL.md), written by the daemon and read by clients: the one place that
/// names them.
extension DaemonStatus {
    /// The result keys of `status`'s response, in the documented order; a part left `nil` is
    /// left out, except `config_file` and `settings`, which are `null`.
    public var fields: JSONObject {
        var object = JSONObject()
        if let protocolVersion { object.append("protocol", .integer(protocolVersion)) }
        if let state { object.append("state", .object(state.fields)) }
        if let audio { object.append("audio", .object(audio.fields)) }
        if let backends { object.append("backends", .object(JSONObject(backends.map { ($0.role, .optional($0.name)) }))) }
        if let uptime { object.append("uptime", .number(uptime, decimals: 1)) }
        if let counters { object.append("counters", .object(JSONObject(counters.map { ($0.name, .integer($0.value)) }))) }
        if let errors { object.append("errors", .array(errors.map { .object($0.fields) })) }
        object.append("config_file", .optional(configFile))
        object.append("settings", settings.map { .object($0.fields) } ?? .null)
        if let recording { object.append("recording", .object(recording.fields)) }
        return object
    }

    /// Reads the result keys of `status`'s response (other keys, such as `id` and `ok`, are
    /// ignored). A part that is missing or cannot be read is `nil`, so a client shows what it can.
    public init(fields: JSONObject) {
        self.init()
        protocolVersion = fields["protocol"]?.integerValue
        state = fields["state"]?.objectValue.flatMap { try? VoiceState(fields: $0) }
        audio = fields["audio"]?.objectValue.map(Audio.init(fields:))
        backends = fields["backends"]?.objectValue?.members.map { Backend(role: $0.key, name: $0.value.stringValue) }
        uptime = fields["uptime"]?.doubleValue
        counters = fields["counters"]?.objectValue?.members.compactMap { member in
            member.value.integerValue.map { Counter(name: member.key, value: $0) }
        }
        errors = fields["errors"]?.arrayValue?.compactMap { $0.objectValue.flatMap { try? ReportedError(fields: $0) } }
        configFile = fields["config_file"]?.stringValue
        settings = fields["settings"]?.objectValue.map(Settings.init(fields:))
        recording = fields["recording"]?.objectValue.flatMap { try? Recording(fields: $0) }
    }
}

extension DaemonStatus.Audio {
    /// `connected`, `server` (`null` while unknown), `source`, `sink`, `audio_time`, `echo_cancellation`.
    public var fields: JSONObject {
        var object = JSONObject()
        if let connected { object.append("connected", .bool(connected)) }
        object.append("server", .optional(server))
        if let source { object.append("source", .optional(source.name)) }
        if let sink { object.append("sink", .optional(sink.name)) }
        if let audioTime { object.append("audio_time", .number(audioTime, decimals: 2)) }
        if let echoCancellation { object.append("echo_cancellation", .string(echoCancellation)) }
        return object
    }

    init(fields: JSONObject) {
        self.init(
            connected: fields["connected"]?.boolValue, server: fields["server"]?.stringValue,
            source: Self.device(fields["source"]), sink: Self.device(fields["sink"]),
            audioTime: fields["audio_time"]?.doubleValue, echoCancellation: fields["echo_cancellation"]?.stringValue
        )
    }

    private static func device(_ json: JSONValue?) -> Device? {
        switch json {
        case nil: nil
        case .string(let name)?: .named(name)
        case _?: .unknown
        }
    }
}

extension DaemonStatus.ReportedError {
    public var fields: JSONObject {
        ["code": .string(code), "message": .string(message), "wall": .number(wall, decimals: 3)]
    }

    init(fields: JSONObject) throws(MessageDecodingError) {
        let what = "an error of status"
        self.init(
            code: try fields.required("code", in: what, \.stringValue), message: try fields.required("message", in: what, \.stringValue),
            wall: try fields.required("wall", in: what, \.doubleValue)
        )
    }
}

extension DaemonStatus.Recording {
    public var fields: JSONObject {
        ["debug_turns": .integer(debugTurns), "directory": .string(directory), "kept": .integer(kept)]
    }

    init(fields: JSONObject) throws(MessageDecodingError) {
        let what = "status's recording"
        self.init(
            debugTurns: try fields.required("debug_turns", in: what, \.integerValue),
            directory: try fields.required("directory", in: what, \.stringValue), kept: try fields.required("kept", in: what, \.integerValue)
        )
    }
}

extension DaemonStatus.Settings {
    public var fields: JSONObject {
        JSONObject(sections.map { section in
            (section.name, .object(JSONObject(section.settings.map { ($0.key, $0.value.json) })))
        })
    }

    init(fields: JSONObject) {
        self.init(sections: fields.members.compactMap { member in
            member.value.objectValue.map { settings in
                Section(name: member.key, settings: settings.members.compactMap { setting in
                    Value(json: setting.value).map { Setting(key: setting.key, value: $0) }
                })
            }
        })
    }
}

extension DaemonStatus.Settings.Value {
    /// The value as JSON: `null`, a string, a number or a boolean.
    public var json: JSONValue {
        switch self {
        case .unset: .null
        case .text(let text): .string(text)
        case .number(let number): .number(number)
        case .flag(let flag): .bool(flag)
        }
    }

    /// `nil` for JSON a setting cannot be (an array or an object).
    init?(json: JSONValue) {
        switch json {
        case .null: self = .unset
        case .string(let text): self = .text(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .flag(flag)
        case .array, .object: return nil
        }
    }
}
