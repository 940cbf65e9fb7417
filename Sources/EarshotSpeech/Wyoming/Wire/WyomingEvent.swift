public import EarshotBase

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

extension WyomingEvent {
    /// The event as the real servers write it: the data in its own block after the header line,
    /// and no `data_length` or `payload_length` when there is nothing to send.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return bytes
    }

    /// Appends ``encoded()`` to `bytes`.
    public func write(to bytes: inout [UInt8]) {
        var header: JSONObject = ["type": .string(type)]
        if let version { header.append("version", .string(version)) }
        var dataBytes: [UInt8] = []
        if !data.isEmpty {
            JSONValue.object(data).write(to: &dataBytes)
            header.append("data_length", .integer(dataBytes.count))
        }
        if !payload.isEmpty { header.append("payload_length", .integer(payload.count)) }
        JSONValue.object(header).write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: dataBytes)
        bytes.append(contentsOf: payload)
    }
}
