/// Which of its services a Wyoming server is asked for, for wording messages.
enum WyomingService {
    case speechToText
    case textToSpeech

    var name: String {
        switch self {
        case .speechToText: "speech-to-text"
        case .textToSpeech: "text-to-speech"
        }
    }

    /// What the server owes at the end, as in "closed the connection before sending …".
    var answer: String {
        switch self {
        case .speechToText: "a transcript"
        case .textToSpeech: "all the audio"
        }
    }
}
