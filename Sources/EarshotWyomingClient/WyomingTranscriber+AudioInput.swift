extension WyomingTranscriber {
    /// What the caller contributes to the conversation.
    enum AudioInput: Sendable {
        case audio([Int16])
        case ended
    }
}
