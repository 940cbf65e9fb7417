extension EchoGate {
    /// What the gate makes of one microphone frame.
    public enum Verdict: Equatable, Sendable {
        /// Nothing has played recently: whatever the microphone hears is the person's (or the
        /// room's), so barge-in detection may use it as it is.
        case open
        /// Something is playing and the microphone holds nothing it does not explain.
        case echo
        /// Something is playing and the microphone holds sound it does not explain: the person
        /// (or another sound in the room) over the playback.
        case nearEnd

        /// Whether the frame may count as the person speaking (the gate lets it through).
        public var passes: Bool { self != .echo }
    }
}
