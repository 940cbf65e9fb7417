public import EarshotProtocol

/// `synthesize`: asks for `text` to be spoken; the audio comes back as audio-start, audio-chunks
/// and audio-stop.
public struct WyomingSynthesize: WyomingMessage {
    public static let eventType = "synthesize"

    public var text: String
    public var voice: WyomingSynthesizeVoice?

    public init(text: String, voice: WyomingSynthesizeVoice? = nil) {
        self.text = text
        self.voice = voice
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(text: try fields.string("text"), voice: try fields.optionalObject("voice").map(WyomingSynthesizeVoice.init))
    }

    public var data: JSONObject {
        var object: JSONObject = ["text": .string(text)]
        object.append("voice", ifPresent: voice?.json)
        return object
    }
}
