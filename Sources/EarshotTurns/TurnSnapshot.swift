/// What a front end renders: a value copy of the machine's visible state.
public struct TurnSnapshot: Equatable, Hashable, Sendable {
    /// The phase the UI shows.
    public var phase: TurnPhase
    /// The number of the latest user utterance; 0 before the first. Never decreases.
    public var turn: Int
    /// Whether the microphone is muted; always `false` while idle.
    public var muted: Bool
    /// The failure to show; only ever set while `listening`, cleared when the user next acts.
    public var error: TurnError?
    /// The wake phrase voice mode waits for before it takes a turn; nil when it takes every
    /// utterance (no wake phrase, or a conversation under way). Set by the pipeline's ``WakeGate``.
    public var waitingFor: String?

    public init(phase: TurnPhase, turn: Int, muted: Bool, error: TurnError? = nil, waitingFor: String? = nil) {
        self.phase = phase
        self.turn = turn
        self.muted = muted
        self.error = error
        self.waitingFor = waitingFor
    }

    /// The controls to offer.
    public var controls: TurnControls {
        TurnControls(phase: phase, muted: muted)
    }
}

/// The five phases of the voice UI.
public enum TurnPhase: String, Sendable, Hashable, CaseIterable {
    case idle, listening, hearing, thinking, speaking
}

/// The controls a front end offers; derived from the phase and the mute state.
public struct TurnControls: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Stop the assistant's speech (the white square).
    public static let stop = TurnControls(rawValue: 1 << 0)
    /// Abandon the current turn ("Tap to cancel").
    public static let cancel = TurnControls(rawValue: 1 << 1)
    /// Leave voice mode (the red X).
    public static let dismiss = TurnControls(rawValue: 1 << 2)
    /// Mute the microphone.
    public static let mute = TurnControls(rawValue: 1 << 3)
    /// Unmute the microphone.
    public static let unmute = TurnControls(rawValue: 1 << 4)

    /// The controls offered in `phase`.
    public init(phase: TurnPhase, muted: Bool) {
        switch phase {
        case .idle:
            self = []
            return
        case .listening:
            self = [.dismiss]
        case .hearing, .thinking:
            self = [.cancel, .dismiss]
        case .speaking:
            self = [.stop, .dismiss]
        }
        insert(muted ? .unmute : .mute)
    }

    /// The control names in a fixed order, as front ends receive them.
    public var names: [String] {
        let named: [(TurnControls, String)] = [
            (.stop, "stop"), (.cancel, "cancel"), (.dismiss, "dismiss"), (.mute, "mute"), (.unmute, "unmute"),
        ]
        return named.filter { contains($0.0) }.map(\.1)
    }
}

/// A failure the voice UI shows while it is back in `listening`.
///
/// Each case is a peer that did not answer in time or could not be reached. The machine has
/// abandoned the work pending, except an utterance's transcription: its audio is kept and its
/// transcript may still arrive later. `turn` is the turn current at the time; an unprompted
/// reply belongs to the latest turn (0 before any).
public enum TurnError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The final transcript for `turn` did not arrive within `transcriptTimeout`.
    case transcriptTimedOut(turn: Int)
    /// The transcriber could not be reached for `turn`; it is transcribed once it returns.
    case transcriberUnavailable(turn: Int)
    /// No reply for `turn` arrived within `replyTimeout`.
    case replyTimedOut(turn: Int)
    /// Synthesised speech did not start playing within `playbackStartTimeout`.
    case playbackDidNotStart(turn: Int)
    /// Playback did not report finishing within `maximumPlayback`.
    case playbackTimedOut(turn: Int)

    /// A short message for the user.
    public var description: String {
        switch self {
        case .transcriptTimedOut: "The transcription is taking long; its words will appear when they arrive."
        case .transcriberUnavailable: "The transcriber is unavailable; what you said is kept and transcribed when it returns."
        case .replyTimedOut: "Sorry, no reply came back in time."
        case .playbackDidNotStart: "Sorry, I couldn't start speaking."
        case .playbackTimedOut: "Sorry, playback stopped responding."
        }
    }
}
