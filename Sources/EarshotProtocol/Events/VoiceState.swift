public import EarshotBase

/// What the voice UI shows: the fields of a `state` event, and the `state` that `status` and the
/// turn commands answer with.
public struct VoiceState: Hashable, Sendable {
    /// The five phases of the voice UI.
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        /// Voice mode is off.
        case idle
        /// The microphone is open, waiting for the person.
        case listening
        /// The person is speaking.
        case hearing
        /// Their turn ended; waiting for the transcript and a reply.
        case thinking
        /// The assistant's reply is playing.
        case speaking
    }

    /// What a front end offers the person, in the order front ends receive them.
    public enum Control: String, Hashable, Sendable, CaseIterable {
        /// Stop the assistant's speech (the white square).
        case stop
        /// Abandon the current turn ("Tap to cancel").
        case cancel
        /// Leave voice mode (the red X).
        case dismiss
        case mute
        case unmute
    }

    public var phase: Phase
    /// The number of the person's latest utterance; 0 before the first. Never decreases.
    public var turn: Int
    public var muted: Bool
    public var controls: [Control]
    /// The `error` code of a `listening` state entered because something failed.
    public var error: String?
    /// The wake phrase voice mode waits for before it takes a turn (`waiting_for`); nil when
    /// it takes every utterance.
    public var waitingFor: String?

    public init(phase: Phase, turn: Int, muted: Bool, controls: [Control], error: String? = nil, waitingFor: String? = nil) {
        self.phase = phase
        self.turn = turn
        self.muted = muted
        self.controls = controls
        self.error = error
        self.waitingFor = waitingFor
    }

    /// `state`, `turn`, `muted`, `controls` and, when set, `error` and `waiting_for`: the `state` event's keys and
    /// the `state` object of responses.
    public var fields: JSONObject {
        var object: JSONObject = [
            "state": .string(phase.rawValue),
            "turn": .integer(turn),
            "muted": .bool(muted),
            "controls": .array(controls.map { .string($0.rawValue) }),
        ]
        if let error { object.append("error", .string(error)) }
        if let waitingFor { object.append("waiting_for", .string(waitingFor)) }
        return object
    }

    /// Reads what ``fields`` writes; other keys (an event's `event`, `wall`, `t`) are ignored.
    public init(fields: JSONObject) throws(MessageDecodingError) {
        let what = "a state"
        phase = try fields.required("state", in: what, as: Phase.self)
        turn = try fields.required("turn", in: what, \.integerValue)
        muted = try fields.required("muted", in: what, \.boolValue)
        controls = []
        for name in try fields.requiredStrings("controls", in: what) {
            guard let control = Control(rawValue: name) else {
                throw MessageDecodingError(description: "a state offers an unknown control: \(name)")
            }
            controls.append(control)
        }
        error = fields["error"]?.stringValue
        waitingFor = fields["waiting_for"]?.stringValue
    }
}

/// A `state` event: what the voice UI shows changed.
public struct StateEvent: Hashable, Sendable {
    public var state: VoiceState
    /// Audio time of the event.
    public var time: Double

    public init(state: VoiceState, time: Double) {
        self.state = state
        self.time = time
    }
}
