import EarshotProtocol

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
