import EarshotProtocol

extension WyomingAudioFormat {
    init(_ fields: WyomingFields) throws(WyomingMessageError) {
        self.init(rate: try fields.int("rate"), width: try fields.int("width"), channels: try fields.int("channels"))
    }

    /// The data of an audio event: the format, then the timestamp (written as null when unknown,
    /// as the reference implementation does).
    func data(timestamp: Int?) -> JSONObject {
        ["rate": .integer(rate), "width": .integer(width), "channels": .integer(channels), "timestamp": timestamp.map(JSONValue.integer) ?? .null]
    }
}
