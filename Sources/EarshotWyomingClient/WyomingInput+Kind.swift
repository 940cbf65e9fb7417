extension WyomingInput {
    /// Whether the server sent an event: a sign of life that restarts the response deadline.
    var isEvent: Bool {
        if case .event = self { true } else { false }
    }
}
