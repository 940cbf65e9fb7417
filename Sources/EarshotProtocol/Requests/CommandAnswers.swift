public import EarshotBase

/// A command's answer: the keys a success carries after `"id"` and `"ok":true`, each answer a
/// type with its one encoding (PROTOCOL.md's table of commands says which command gives which).
public protocol CommandAnswer: Sendable {
    /// The result keys, in order.
    var fields: JSONObject { get }
}

extension CommandResult {
    /// A success carrying `answer`'s keys.
    public static func answer(_ answer: some CommandAnswer) -> CommandResult {
        .success(answer.fields)
    }
}

extension DaemonStatus: CommandAnswer {}

/// What the turn commands (`start`, `dismiss`, `stop`, `cancel`, `mute`, `unmute`) and `speak`
/// answer: the voice UI's state after the command.
public struct StateAnswer: CommandAnswer, Hashable {
    public var state: VoiceState

    public init(state: VoiceState) {
        self.state = state
    }

    public var fields: JSONObject {
        ["state": .object(state.fields)]
    }
}

/// `devices`: the sound server's sources and sinks, and the ones in use.
public struct DeviceListAnswer: CommandAnswer, Hashable {
    public struct Device: Hashable, Sendable {
        public var name: String
        public var description: String
        /// The server's default of its kind.
        public var isDefault: Bool
        /// A sink's monitor (a source that records what the sink plays).
        public var isMonitor: Bool

        public init(name: String, description: String, isDefault: Bool, isMonitor: Bool) {
            self.name = name
            self.description = description
            self.isDefault = isDefault
            self.isMonitor = isMonitor
        }

        var value: JSONValue {
            .object([
                "name": .string(name), "description": .string(description),
                "default": .bool(isDefault), "monitor": .bool(isMonitor),
            ])
        }
    }

    public var sources: [Device]
    public var sinks: [Device]
    /// The source in use; nil while unknown (`null`).
    public var source: String?
    /// The sink in use; nil while unknown (`null`).
    public var sink: String?

    public init(sources: [Device], sinks: [Device], source: String?, sink: String?) {
        self.sources = sources
        self.sinks = sinks
        self.source = source
        self.sink = sink
    }

    public var fields: JSONObject {
        [
            "sources": .array(sources.map(\.value)), "sinks": .array(sinks.map(\.value)),
            "source": .optional(source), "sink": .optional(sink),
        ]
    }
}

/// `set-source` and `set-sink`: the device now in use, and whether it follows the server's
/// default.
public struct RouteAnswer: CommandAnswer, Hashable {
    public enum Direction: String, Hashable, Sendable {
        case source, sink
    }

    public var direction: Direction
    /// The name of the device in use.
    public var inUse: String
    /// No device was named: the server's default is followed.
    public var followsDefault: Bool

    public init(direction: Direction, inUse: String, followsDefault: Bool) {
        self.direction = direction
        self.inUse = inUse
        self.followsDefault = followsDefault
    }

    public var fields: JSONObject {
        [direction.rawValue: .string(inUse), "following_default": .bool(followsDefault)]
    }
}

/// `voices`: every voice, the current one marked.
public struct VoiceListAnswer: CommandAnswer, Hashable {
    public struct Entry: Hashable, Sendable {
        public var id: String
        public var name: String
        public var description: String
        public var language: String
        public var isCurrent: Bool

        public init(id: String, name: String, description: String, language: String, isCurrent: Bool) {
            self.id = id
            self.name = name
            self.description = description
            self.language = language
            self.isCurrent = isCurrent
        }
    }

    public var voices: [Entry]

    public init(voices: [Entry]) {
        self.voices = voices
    }

    public var fields: JSONObject {
        ["voices": .array(voices.map { voice in
            .object([
                "id": .string(voice.id), "name": .string(voice.name), "description": .string(voice.description),
                "language": .string(voice.language), "current": .bool(voice.isCurrent),
            ])
        })]
    }
}

/// `set-voice`: the id of the voice replies are now spoken in.
public struct VoiceAnswer: CommandAnswer, Hashable {
    public var voice: String

    public init(voice: String) {
        self.voice = voice
    }

    public var fields: JSONObject {
        ["voice": .string(voice)]
    }
}

/// `preview`: the id of the voice being previewed, and the voice UI's state.
public struct PreviewAnswer: CommandAnswer, Hashable {
    public var voice: String
    public var state: VoiceState

    public init(voice: String, state: VoiceState) {
        self.voice = voice
        self.state = state
    }

    public var fields: JSONObject {
        ["voice": .string(voice), "state": .object(state.fields)]
    }
}

/// `forget` (confirmed): what was deleted, and where.
public struct ForgetAnswer: CommandAnswer, Hashable {
    /// Files deleted.
    public var deleted: Int
    /// Recorded turns they held.
    public var turns: Int
    public var directory: String

    public init(deleted: Int, turns: Int, directory: String) {
        self.deleted = deleted
        self.turns = turns
        self.directory = directory
    }

    public var fields: JSONObject {
        ["deleted": .integer(deleted), "turns": .integer(turns), "directory": .string(directory)]
    }
}

/// `subscribe`: the topics now subscribed to (in their documented order) and the `level` rate.
public struct SubscriptionAnswer: CommandAnswer, Hashable {
    public var topics: Set<EventTopic>
    public var levelHz: Int

    public init(topics: Set<EventTopic>, levelHz: Int) {
        self.topics = topics
        self.levelHz = levelHz
    }

    public var fields: JSONObject {
        ["topics": .array(topics.sorted().map { .string($0.rawValue) }), "level_hz": .integer(levelHz)]
    }
}

/// `unsubscribe`: no keys besides `id` and `ok`.
public struct UnsubscribeAnswer: CommandAnswer, Hashable {
    public init() {}

    public var fields: JSONObject { [:] }
}

/// `claim` (granted): who holds the conversation now, this connection.
public struct ClaimAnswer: CommandAnswer, Hashable {
    public var holder: String

    public init(holder: String) {
        self.holder = holder
    }

    public var fields: JSONObject {
        ["holder": .string(holder)]
    }
}

/// `unclaim`: whether this connection held the conversation and gave it back.
public struct UnclaimAnswer: CommandAnswer, Hashable {
    public var released: Bool

    public init(released: Bool) {
        self.released = released
    }

    public var fields: JSONObject {
        ["released": .bool(released)]
    }
}
