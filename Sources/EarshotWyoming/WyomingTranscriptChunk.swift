/// `transcript-chunk`: more text of a streamed transcript, to be appended to what came before.
public struct WyomingTranscriptChunk: WyomingTextMessage {
    public static let eventType = "transcript-chunk"

    public var text: String

    public init(text: String) {
        self.text = text
    }
}
