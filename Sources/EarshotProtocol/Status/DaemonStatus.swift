public import EarshotBase

/// `status`'s answer: what the daemon is doing. The daemon fills every part; a client reading an
/// answer keeps only the parts it was sent and could read, and shows no more than those.
public struct DaemonStatus: Hashable, Sendable {
    /// The version of the protocol this module speaks (PROTOCOL.md, "Versions and compatibility").
    public static let currentProtocolVersion = 1

    /// The protocol version the daemon speaks.
    public var protocolVersion: Int?
    public var state: VoiceState?
    public var audio: Audio?
    /// The backend in use for each role (`vad`, `transcription`, `speech`, `voice`), in the
    /// daemon's order.
    public var backends: [Backend]?
    /// Seconds since the daemon started.
    public var uptime: Double?
    /// The daemon's counters by name, in its order.
    public var counters: [Counter]?
    /// The last errors, newest last.
    public var errors: [ReportedError]?
    /// The configuration file read at start and on SIGHUP, whether or not it exists; `nil` (sent
    /// as `null`) when the daemon was configured in code.
    public var configFile: String?
    /// The settings in force; `nil` (sent as `null`) when the daemon was configured in code.
    public var settings: Settings?
    public var recording: Recording?

    public init(
        protocolVersion: Int? = nil, state: VoiceState? = nil, audio: Audio? = nil, backends: [Backend]? = nil, uptime: Double? = nil, counters: [Counter]? = nil,
        errors: [ReportedError]? = nil, configFile: String? = nil, settings: Settings? = nil, recording: Recording? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.state = state
        self.audio = audio
        self.backends = backends
        self.uptime = uptime
        self.counters = counters
        self.errors = errors
        self.configFile = configFile
        self.settings = settings
        self.recording = recording
    }

    /// The sound server and the devices in use.
    public struct Audio: Hashable, Sendable {
        /// A device in use, as far as the daemon knows it.
        public enum Device: Hashable, Sendable {
            /// Not known yet (sent as `null`).
            case unknown
            case named(String)

            public var name: String? {
                if case .named(let name) = self { name } else { nil }
            }
        }

        public var connected: Bool?
        /// The sound server's name; `nil` while unknown.
        public var server: String?
        public var source: Device?
        public var sink: Device?
        /// The audio time of the latest frame, in seconds.
        public var audioTime: Double?
        /// `off`, `active on <source> and <sink>`, or `unavailable: <why>`.
        public var echoCancellation: String?

        public init(
            connected: Bool? = nil, server: String? = nil, source: Device? = nil, sink: Device? = nil, audioTime: Double? = nil,
            echoCancellation: String? = nil
        ) {
            self.connected = connected
            self.server = server
            self.source = source
            self.sink = sink
            self.audioTime = audioTime
            self.echoCancellation = echoCancellation
        }
    }

    /// The backend in use for one role; `name` is `nil` when there is none.
    public struct Backend: Hashable, Sendable {
        public var role: String
        public var name: String?

        public init(role: String, name: String?) {
            self.role = role
            self.name = name
        }
    }

    public struct Counter: Hashable, Sendable {
        public var name: String
        public var value: Int

        public init(name: String, value: Int) {
            self.name = name
            self.value = value
        }
    }

    /// One of the daemon's last errors.
    public struct ReportedError: Hashable, Sendable {
        public var code: String
        public var message: String
        /// When it happened, Unix seconds.
        public var wall: Double

        public init(code: String, message: String, wall: Double) {
            self.code = code
            self.message = message
            self.wall = wall
        }
    }

    /// Debug recording.
    public struct Recording: Hashable, Sendable {
        /// How many of the latest turns are kept; 0 when recording is off.
        public var debugTurns: Int
        /// Where recordings are kept.
        public var directory: String
        /// How many recorded turns are there now, from this run or an earlier one.
        public var kept: Int

        public init(debugTurns: Int, directory: String, kept: Int) {
            self.debugTurns = debugTurns
            self.directory = directory
            self.kept = kept
        }
    }

    /// The settings in force, by section as in the configuration file. The protocol does not
    /// know the keys (the settings module does): it carries them as named values.
    public struct Settings: Hashable, Sendable {
        public enum Value: Hashable, Sendable {
            /// A key without a value (sent as `null`).
            case unset
            case text(String)
            case number(JSONNumber)
            case flag(Bool)
        }

        public struct Setting: Hashable, Sendable {
            public var key: String
            public var value: Value

            public init(key: String, value: Value) {
                self.key = key
                self.value = value
            }
        }

        public struct Section: Hashable, Sendable {
            public var name: String
            public var settings: [Setting]

            public init(name: String, settings: [Setting]) {
                self.name = name
                self.settings = settings
            }

            /// The value of `key`, if the section has it.
            public subscript(key: String) -> Value? {
                settings.last { $0.key == key }?.value
            }
        }

        public var sections: [Section]

        public init(sections: [Section]) {
            self.sections = sections
        }

        /// The section named `name`, if there is one.
        public subscript(section name: String) -> Section? {
            sections.last { $0.name == name }
        }
    }
}
