public import EarshotBase
public import EarshotProtocol

/// What `earshot watch` shows, kept up to date from the daemon's events and `status` answers.
public struct WatchModel: Sendable, Equatable {
    /// How many of the last errors are kept.
    public static let keptErrors = 4

    public var socketPath: String
    public var connection: Connection = .connecting
    /// The voice UI's state (`idle`, `listening`, …); `nil` until the daemon has said.
    public var state: String?
    public var turn = 0
    public var muted = false
    public var controls: [String] = []
    /// The error code of a `listening` state entered because something failed.
    public var stateError: String?
    /// The wake phrase voice mode waits for before it takes a turn; nil when it takes every one.
    public var waitingFor: String?
    public var mic: Meter?
    /// The assistant's voice; only while it speaks.
    public var speaker: Meter?
    public var utterance: Utterance?
    /// The last errors, newest last.
    public var errors: [ErrorNote] = []
    public var audio = AudioRoute()
    /// Seconds the daemon has been up, as of its last `status` answer.
    public var uptime: Double?
    /// What answers transcripts ("assistant at URL (model m)"), as of the last `status` answer.
    public var replies: String?
    /// The latest audio time (`t`) heard from the daemon.
    public var audioTime: Double?
    /// What became of the last command sent from the keyboard, when there is something to say.
    public var notice: String?

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    public enum Connection: Sendable, Equatable {
        case connecting
        case connected
        /// The daemon went away; why, in words.
        case lost(String)
    }
}

// MARK: What it shows

extension WatchModel {
    /// One level reading for the voice blob (a `level` event).
    public struct Meter: Sendable, Equatable {
        /// Perceived loudness, 0…1.
        public var level: Double
        public var rmsDBFS: Double?
        /// Below 300 Hz, 300 Hz–1 kHz, 1–3 kHz, above 3 kHz; each 0…1.
        public var bands: [Double]

        public init(level: Double, rmsDBFS: Double? = nil, bands: [Double] = []) {
            self.level = level
            self.rmsDBFS = rmsDBFS
            self.bands = bands
        }
    }

    /// The person's latest utterance, in audio time (`speech` events).
    public struct Utterance: Sendable, Equatable {
        public var turn: Int
        /// The onset; `nil` if it began before the watch did.
        public var start: Double?
        /// The end of its last speech frame; `nil` while the person is still speaking.
        public var end: Double?
        /// Where it may be over (an `eager_end`, the end of its last speech frame) while its end
        /// is awaited; `nil` otherwise.
        public var mayHaveEnded: Double?
        /// How many times the person went on after an eager end, or soon after an end (`resumed`).
        public var resumptions: Int

        public init(turn: Int, start: Double?, end: Double? = nil, mayHaveEnded: Double? = nil, resumptions: Int = 0) {
            self.turn = turn
            self.start = start
            self.end = end
            self.mayHaveEnded = mayHaveEnded
            self.resumptions = resumptions
        }

        public var duration: Double? {
            guard let start, let end else { return nil }
            return end - start
        }
    }

    /// An error the daemon reported (an `error` event, or one of `status`'s last errors).
    public struct ErrorNote: Sendable, Equatable {
        public var code: String
        public var message: String
        /// Unix seconds, when known.
        public var wall: Double?

        public init(code: String, message: String, wall: Double? = nil) {
            self.code = code
            self.message = message
            self.wall = wall
        }
    }

    /// The sound server and the devices in use.
    public struct AudioRoute: Sendable, Equatable {
        public var connected: Bool?
        public var server: String?
        public var source: String?
        public var sink: String?

        public init(connected: Bool? = nil, server: String? = nil, source: String? = nil, sink: String? = nil) {
            self.connected = connected
            self.server = server
            self.source = source
            self.sink = sink
        }
    }
}

// MARK: Updates

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
        case .transcript, .speaker, .config, .wake: break  // Nothing the watch shows (a wake comes with its state).
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
        if let replies = status.backends?.first(where: { $0.role == "replies" }) { self.replies = replies.name }
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
        waitingFor = voiceState.waitingFor
        // Levels stop coming when their source falls quiet; a stale bar would look alive.
        if state == "idle" || muted { mic = nil }
        if state != "speaking" { speaker = nil }
    }

    mutating func apply(_ speech: SpeechEvent) {
        switch speech.phase {
        case .start:
            utterance = Utterance(turn: speech.turn, start: speech.time)
        case .end:
            // A resumed utterance ends as the turn it went on as.
            if var current = utterance, current.turn == speech.turn || current.resumptions > 0, current.end == nil {
                current.turn = speech.turn
                current.end = speech.time
                current.mayHaveEnded = nil
                utterance = current
            } else {
                utterance = Utterance(turn: speech.turn, start: nil, end: speech.time)
            }
        case .eagerEnd:
            if var current = utterance, current.turn == speech.turn, current.end == nil {
                current.mayHaveEnded = speech.time
                utterance = current
            }
        case .resumed:
            // After an eager end, the utterance's own turn; after an end (rejoined), the one before it.
            if var current = utterance, current.turn == speech.turn || current.turn == speech.turn + 1, current.end == nil {
                current.mayHaveEnded = nil
                current.resumptions += 1
                utterance = current
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
