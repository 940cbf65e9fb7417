/// Which of its services a Wyoming server is asked for.
public enum WyomingService: Sendable {
    case speechToText
    case textToSpeech

    public var name: String {
        switch self {
        case .speechToText: "speech-to-text"
        case .textToSpeech: "text-to-speech"
        }
    }

    /// What the server owes at the end, as in "closed the connection before sending …".
    public var answer: String {
        switch self {
        case .speechToText: "a transcript"
        case .textToSpeech: "all the audio"
        }
    }
}
