extension SpeakerEvent {
    public enum Phase: String, Equatable, Sendable {
        /// The reply's first audio goes to the speaker.
        case start
        /// The person may be interrupting: the speaker falls silent, keeping its place.
        case pause
        /// It was a false alarm: the reply goes on from where it paused.
        case resume
        /// The reply is abandoned (the person took the turn, or the turn was cancelled).
        case stop
        /// The reply has been said to its end.
        case end
    }
}
