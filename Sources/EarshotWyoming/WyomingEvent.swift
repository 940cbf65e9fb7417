public import EarshotProtocol

/// One Wyoming event: a type, a JSON object of data, and optional raw bytes (audio).
///
/// On the wire it is a JSON header line, then `data_length` bytes of JSON data, then
/// `payload_length` bytes of payload; see ``WyomingFrameDecoder`` and ``encoded()``.
public struct WyomingEvent: Equatable, Sendable {
    /// The protocol version this implementation follows and writes in every header.
    public static let protocolVersion = "1.10.2"

    /// For example "transcribe" or "audio-chunk".
    public var type: String
    public var data: JSONObject
    public var payload: [UInt8]
    /// The sender's protocol version, when it said.
    public var version: String?

    public init(type: String, data: JSONObject = [:], payload: [UInt8] = [], version: String? = WyomingEvent.protocolVersion) {
        self.type = type
        self.data = data
        self.payload = payload
        self.version = version
    }
}
