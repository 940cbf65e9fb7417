public import EarshotProtocol

/// `audio-stop`: the audio stream has ended.
public struct WyomingAudioStop: WyomingMessage {
    public static let eventType = "audio-stop"

    /// Milliseconds.
    public var timestamp: Int?

    public init(timestamp: Int? = nil) {
        self.timestamp = timestamp
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        self.init(timestamp: try WyomingFields(data, eventType: Self.eventType).optionalInt("timestamp"))
    }

    public var data: JSONObject { ["timestamp": timestamp.map(JSONValue.integer) ?? .null] }
}
