/// `synthesize-chunk`: more text to speak in a streamed synthesis.
public struct WyomingSynthesizeChunk: WyomingTextMessage {
    public static let eventType = "synthesize-chunk"

    public var text: String

    public init(text: String) {
        self.text = text
    }
}
