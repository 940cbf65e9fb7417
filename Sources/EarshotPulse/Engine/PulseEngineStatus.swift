/// Where the engine is connected, as of the last event.
public struct PulseEngineStatus: Sendable, Hashable {
    public var isConnected: Bool
    /// The address of the server connected to, e.g. "unix:/run/user/1000/pulse/native"; nil
    /// while disconnected.
    public var server: String?
    /// What the server calls itself, e.g. "pulseaudio 16.1" or "PulseAudio (on PipeWire 1.0.5)";
    /// nil while disconnected.
    public var serverName: String?
    /// The source being captured; nil while disconnected.
    public var source: String?
    /// The sink cues and speech play on; nil while disconnected.
    public var sink: String?
    /// Whether `source` and `sink` are the echo canceller's, and on which real devices.
    public var echoCancellation: PulseEchoCancellation

    public init(
        isConnected: Bool = false, server: String? = nil, serverName: String? = nil, source: String? = nil,
        sink: String? = nil, echoCancellation: PulseEchoCancellation = .off
    ) {
        self.isConnected = isConnected
        self.server = server
        self.serverName = serverName
        self.source = source
        self.sink = sink
        self.echoCancellation = echoCancellation
    }
}

/// What the engine tells the daemon about the sound server, in the order it happened.
public enum PulseEngineEvent: Sendable, Hashable {
    /// Connected (at start, or again after the server came back) and capturing from `source`.
    /// `server` is the address connected to.
    case connected(server: String, source: String, sink: String)
    /// The server went away, or could not be reached; the next attempt comes after `retryIn`.
    /// Sent once per loss, not for every failed retry.
    case disconnected(PulseError, retryIn: Duration)
    /// Capture moved to another source: chosen, followed (the default changed), or fallen back to
    /// (the chosen one disappeared).
    case sourceChanged(String)
    /// Playback moved to another sink, for the same reasons.
    case sinkChanged(String)
    /// A source or sink appeared or disappeared.
    case devicesChanged
    /// Everything passed to `play` has been played.
    case playbackFinished
}

/// How capture has gone since the engine started.
public struct PulseEngineCounters: Sendable, Hashable {
    /// Frames delivered by the server (including hole and dropped ones) and, while the
    /// microphone is silenced, frames of silence.
    public var framesCaptured: Int
    /// Frames that contained audio the server lost, filled with silence.
    public var holeFrames: Int
    /// Frames dropped because the consumer fell more than the ring's capacity behind.
    public var overflowFrames: Int
    /// Times the engine connected again after losing the server.
    public var reconnects: Int
    /// The longest wait between two fragments from the server while capturing (pauses of the
    /// microphone and reconnections aside): about 10 ms when the audio path keeps up.
    public var longestFragmentGap: Duration
    /// Turns of libpulse's mainloop thread, four a second: when they stop, the thread (and a frame
    /// handler running on it) is stuck.
    public var heartbeats: Int

    public init(
        framesCaptured: Int = 0, holeFrames: Int = 0, overflowFrames: Int = 0, reconnects: Int = 0,
        longestFragmentGap: Duration = .zero, heartbeats: Int = 0
    ) {
        self.framesCaptured = framesCaptured
        self.longestFragmentGap = longestFragmentGap
        self.holeFrames = holeFrames
        self.overflowFrames = overflowFrames
        self.reconnects = reconnects
        self.heartbeats = heartbeats
    }
}

/// Whether the engine's microphone is in use.
public enum MicrophoneState: Sendable, Hashable {
    /// Capturing: the person's audio arrives as frames.
    case open
    /// Corked: nothing arrives, audio time stands still (voice mode is off).
    case closed
    /// Corked, with frames of silence arriving in real time instead (voice mode is muted).
    case silenced

    /// A number for an atomic.
    var code: Int {
        switch self {
        case .open: 0
        case .closed: 1
        case .silenced: 2
        }
    }

    init(code: Int) {
        self = switch code {
        case 0: .open
        case 1: .closed
        default: .silenced
        }
    }
}
