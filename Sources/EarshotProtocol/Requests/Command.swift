public import EarshotBase

/// A request's command, with its arguments checked.
public enum Command: Hashable, Sendable {
    case status
    case start
    case dismiss
    case stop
    case cancel
    case mute
    case unmute
    /// The talk key went down: a turn opens now and ends only at `release`.
    case hold
    /// The talk key came up: the held turn ends now.
    case release
    /// Listen for one turn, then back to what voice mode was.
    case talk
    /// Voice mode on if it is off, else off.
    case toggle
    /// Events of `topics` from now on, `level` events at most `levelHz` per second of audio.
    case subscribe(topics: Set<EventTopic>, levelHz: Int)
    case unsubscribe
    case devices
    /// Capture from the named source; `nil` follows the sound server's default.
    case setSource(String?)
    /// Play to the named sink; `nil` follows the sound server's default.
    case setSink(String?)
    /// Say `text` (in `voice`, else the current one), as the reply to `turn` or, without one,
    /// unprompted while listening. `say` is the same command.
    case speak(text: String, voice: String?, turn: Int?)
    /// The voices, the current one marked.
    case voices
    /// Speak in the named voice from now on.
    case setVoice(String)
    /// Speak a sample line in the named voice (the current one when nil).
    case preview(String?)
    /// Delete every recording the daemon made; without `confirm`, only say what that would delete.
    case forget(confirm: Bool)
    /// Hold the conversation for this connection (`holder` says who, for the busy message),
    /// so that two agents never talk to the person at once; see ``ConversationClaim``.
    case claim(holder: String)
    /// Give the conversation back.
    case unclaim

    /// `level_hz` when a subscription does not say.
    public static let defaultLevelHz = 30
    /// The `level_hz` a subscription may ask for.
    public static let levelHzRange = 1...60

    /// Every command name on the wire, in the documented order.
    public static let names = [
        "status", "start", "dismiss", "stop", "cancel", "mute", "unmute", "subscribe", "unsubscribe", "devices",
        "set-source", "set-sink", "speak", "say", "voices", "set-voice", "preview", "forget",
        "hold", "release", "talk", "toggle", "claim", "unclaim",
    ]

    /// The `cmd` value of this command.
    public var name: String {
        switch self {
        case .status: "status"
        case .start: "start"
        case .dismiss: "dismiss"
        case .stop: "stop"
        case .cancel: "cancel"
        case .mute: "mute"
        case .unmute: "unmute"
        case .hold: "hold"
        case .release: "release"
        case .talk: "talk"
        case .toggle: "toggle"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .devices: "devices"
        case .setSource: "set-source"
        case .setSink: "set-sink"
        case .speak: "speak"
        case .voices: "voices"
        case .setVoice: "set-voice"
        case .preview: "preview"
        case .forget: "forget"
        case .claim: "claim"
        case .unclaim: "unclaim"
        }
    }
}

// MARK: Arguments

extension Command {
    /// Reads the command named `name` and its arguments from the request object.
    ///
    /// Keys a command does not take are ignored, so newer clients can talk to older daemons.
    public init(name: String, arguments request: JSONObject) throws(ProtocolError) {
        switch name {
        case "status": self = .status
        case "start": self = .start
        case "dismiss": self = .dismiss
        case "stop": self = .stop
        case "cancel": self = .cancel
        case "mute": self = .mute
        case "unmute": self = .unmute
        case "hold": self = .hold
        case "release": self = .release
        case "talk": self = .talk
        case "toggle": self = .toggle
        case "subscribe":
            self = .subscribe(
                topics: try Self.topics(request["topics"]),
                levelHz: try Self.levelHz(request["level_hz"])
            )
        case "unsubscribe": self = .unsubscribe
        case "devices": self = .devices
        case "set-source": self = .setSource(try Self.deviceName(request, kind: "source"))
        case "set-sink": self = .setSink(try Self.deviceName(request, kind: "sink"))
        case "speak", "say":
            self = .speak(
                text: try Self.text(request["text"]),
                voice: try Self.voiceName(request["voice"], required: false),
                turn: try Self.turn(request["turn"])
            )
        case "voices": self = .voices
        case "set-voice": self = .setVoice(try Self.voiceName(request["voice"], required: true) ?? "")
        case "preview": self = .preview(try Self.voiceName(request["voice"], required: false))
        case "forget": self = .forget(confirm: try Self.confirmation(request["confirm"]))
        case "claim": self = .claim(holder: try Self.holder(request["holder"]))
        case "unclaim": self = .unclaim
        default: throw ProtocolError.unknownCommand(name)
        }
    }

    /// The arguments of this command as request members (after `id` and `cmd`); an optional
    /// argument that is absent (a `speak` without `voice`, a `forget` unconfirmed) is left out.
    public var arguments: JSONObject {
        switch self {
        case .status, .start, .dismiss, .stop, .cancel, .mute, .unmute, .hold, .release, .talk, .toggle, .unsubscribe,
            .devices, .voices, .unclaim:
            return [:]
        case .claim(let holder):
            return ["holder": .string(holder)]
        case .speak(let text, let voice, let turn):
            var arguments: JSONObject = ["text": .string(text)]
            if let voice { arguments.append("voice", .string(voice)) }
            if let turn { arguments.append("turn", .integer(turn)) }
            return arguments
        case .setVoice(let voice):
            return ["voice": .string(voice)]
        case .preview(let voice):
            return voice.map { ["voice": .string($0)] } ?? [:]
        case .forget(let confirm):
            return confirm ? ["confirm": true] : [:]
        case .subscribe(let topics, let levelHz):
            return ["topics": .array(topics.sorted().map { .string($0.rawValue) }), "level_hz": .integer(levelHz)]
        case .setSource(let name), .setSink(let name):
            return ["name": .optional(name)]
        }
    }

    private static let topicRequirement =
        "an array of topics from " + EventTopic.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    private static func topics(_ value: JSONValue?) throws(ProtocolError) -> Set<EventTopic> {
        guard let value else { return Set(EventTopic.allCases) }
        guard let elements = value.arrayValue else {
            throw ProtocolError.invalidArgument("topics", must: topicRequirement, found: value)
        }
        var topics = Set<EventTopic>()
        for element in elements {
            guard let name = element.stringValue, let topic = EventTopic(rawValue: name) else {
                throw ProtocolError.invalidArgument("topics", must: topicRequirement, found: value)
            }
            topics.insert(topic)
        }
        return topics
    }

    private static func levelHz(_ value: JSONValue?) throws(ProtocolError) -> Int {
        guard let value else { return defaultLevelHz }
        guard let rate = value.numberValue?.integerValue, levelHzRange.contains(rate) else {
            throw ProtocolError.invalidArgument(
                "level_hz",
                must: "a whole number from \(levelHzRange.lowerBound) to \(levelHzRange.upperBound)",
                found: value
            )
        }
        return rate
    }

    /// The longest text one `speak` takes; longer replies are sent in parts.
    public static let maximumSpeechCharacters = 10_000

    private static func text(_ value: JSONValue?) throws(ProtocolError) -> String {
        let requirement = "the text to say, a non-empty string of at most \(maximumSpeechCharacters) characters"
        guard let text = value?.stringValue, !text.allSatisfy(\.isWhitespace), text.count <= maximumSpeechCharacters else {
            throw ProtocolError.invalidArgument("text", must: requirement, found: value)
        }
        return text
    }

    private static func voiceName(_ value: JSONValue?, required: Bool) throws(ProtocolError) -> String? {
        let requirement = "a voice name (see voices)"
        switch value {
        case nil where !required, .null where !required: return nil
        case .string(let name) where !name.isEmpty: return name
        case let other: throw ProtocolError.invalidArgument("voice", must: requirement, found: other)
        }
    }

    private static func turn(_ value: JSONValue?) throws(ProtocolError) -> Int? {
        switch value {
        case nil, .null: return nil
        case let value?:
            guard let turn = value.numberValue?.integerValue, turn >= 1 else {
                throw ProtocolError.invalidArgument("turn", must: "the number of the turn being answered (1 or more)", found: value)
            }
            return turn
        }
    }

    /// The longest `holder` a claim takes: a name for a message, not a document.
    public static let maximumHolderCharacters = 200

    private static func holder(_ value: JSONValue?) throws(ProtocolError) -> String {
        guard let holder = value?.stringValue, !holder.allSatisfy(\.isWhitespace), holder.count <= maximumHolderCharacters else {
            throw ProtocolError.invalidArgument(
                "holder", must: "who holds the conversation, a non-empty string of at most \(maximumHolderCharacters) characters", found: value
            )
        }
        return holder
    }

    private static func confirmation(_ value: JSONValue?) throws(ProtocolError) -> Bool {
        switch value {
        case nil, .null: return false
        case .bool(let confirm)?: return confirm
        case let other?: throw ProtocolError.invalidArgument("confirm", must: "true (to go ahead) or false", found: other)
        }
    }

    private static func deviceName(_ request: JSONObject, kind: String) throws(ProtocolError) -> String? {
        let requirement = "a \(kind) name (see devices), or null to follow the sound server's default"
        switch request["name"] {
        case .null: return nil
        case .string(let name) where !name.isEmpty: return name
        case let other: throw ProtocolError.invalidArgument("name", must: requirement, found: other)
        }
    }
}
