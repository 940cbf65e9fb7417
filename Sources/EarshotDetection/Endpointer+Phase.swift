extension Endpointer {
    enum Phase: Sendable {
        case idle
        /// Speech was seen but the minimum speech is not confirmed yet.
        case onset
        case speaking
    }
}
