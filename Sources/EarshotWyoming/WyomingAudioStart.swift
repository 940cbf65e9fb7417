public import EarshotProtocol

/// `audio-start`: an audio stream begins.
public struct WyomingAudioStart: WyomingMessage {
    public static let eventType = "audio-start"

    public var format: WyomingAudioFormat
    /// Milliseconds.
    public var timestamp: Int?

    public init(format: WyomingAudioFormat, timestamp: Int? = nil) {
        self.format = format
        self.timestamp = timestamp
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        self.init(format: try WyomingAudioFormat(fields), timestamp: try fields.optionalInt("timestamp"))
    }

    public var data: JSONObject { format.data(timestamp: timestamp) }
}
