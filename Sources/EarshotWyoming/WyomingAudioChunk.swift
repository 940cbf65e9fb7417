public import EarshotProtocol

/// `audio-chunk`: raw PCM audio in the payload, its format in the data.
public struct WyomingAudioChunk: WyomingMessage {
    public static let eventType = "audio-chunk"

    public var format: WyomingAudioFormat
    public var audio: [UInt8]
    /// Milliseconds.
    public var timestamp: Int?

    public init(format: WyomingAudioFormat, audio: [UInt8], timestamp: Int? = nil) {
        self.format = format
        self.audio = audio
        self.timestamp = timestamp
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(format: try WyomingAudioFormat(fields), audio: payload, timestamp: try fields.optionalInt("timestamp"))
    }

    public var data: JSONObject { format.data(timestamp: timestamp) }
    public var payload: [UInt8] { audio }
}
