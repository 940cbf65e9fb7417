public import EarshotProtocol

/// `synthesize-start`: streamed text follows as `synthesize-chunk`s, ended by `synthesize-stop`.
public struct WyomingSynthesizeStart: WyomingMessage {
    public static let eventType = "synthesize-start"

    public var voice: WyomingSynthesizeVoice?

    public init(voice: WyomingSynthesizeVoice? = nil) {
        self.voice = voice
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(voice: try fields.optionalObject("voice").map(WyomingSynthesizeVoice.init))
    }

    public var data: JSONObject {
        var object = JSONObject()
        object.append("voice", ifPresent: voice?.json)
        return object
    }
}
