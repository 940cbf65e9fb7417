import EarshotBase

/// Turns a byte stream, in reads of any size, into Wyoming events.
///
/// Feed bytes with ``append(_:)`` and take events with ``next()`` until it returns nil; at the end
/// of the stream call ``finish()`` to learn whether it stopped inside an event. Data is accepted
/// both inline (`"data": {...}` in the header) and as the separate `data_length` block, which is
/// merged over it. Once an error is thrown, every later call throws it again.
public struct WyomingFrameDecoder: Sendable {
    public let limits: WyomingFrameLimits

    /// Header lines, and the data and payload blocks their lengths announce.
    private var stream: LineSplitter
    /// A header whose data and payload have not all arrived.
    private var pending: Header?
    private var failure: WyomingDecodingError?

    private struct Header {
        var type: String
        var data: JSONObject
        var version: String?
        var dataLength: Int
        var payloadLength: Int
    }

    public init(limits: WyomingFrameLimits = WyomingFrameLimits()) {
        self.limits = limits
        stream = LineSplitter(maximumLength: limits.maximumHeaderLength)
    }

    /// Bytes received but not yet returned as events.
    public var bufferedByteCount: Int { stream.bufferedByteCount }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        stream.append(bytes)
    }

    /// The next complete event, or nil until more bytes arrive.
    public mutating func next() throws(WyomingDecodingError) -> WyomingEvent? {
        if let failure { throw failure }
        do {
            return try decodeNext()
        } catch {
            failure = error
            throw error
        }
    }

    /// Call when the stream has ended: throws ``WyomingDecodingError/truncated(_:)`` if it ended
    /// inside an event. Complete events still buffered are not an error; take them with ``next()`` first.
    public func finish() throws(WyomingDecodingError) {
        if let failure { throw failure }
        if let pending {
            let expected = pending.dataLength + pending.payloadLength
            throw .truncated("\(bufferedByteCount) of the \(expected) bytes after the \(pending.type) header arrived")
        }
        let rest = stream.bufferedBytes
        if rest.contains(where: { !Self.isWhitespace($0) }) {
            throw .truncated("\(rest.count) bytes of a header line without its newline")
        }
    }

    private mutating func decodeNext() throws(WyomingDecodingError) -> WyomingEvent? {
        while pending == nil {
            guard let line = try takeLine() else { return nil }
            if line.allSatisfy(Self.isWhitespace) { continue }
            pending = try Self.parseHeader(line, limits: limits)
        }
        guard let header = pending else { return nil }
        guard bufferedByteCount >= header.dataLength + header.payloadLength else { return nil }
        var data = header.data
        if header.dataLength > 0, let block = stream.take(header.dataLength) {
            let value: JSONValue
            do {
                value = try JSONParser.parse(block)
            } catch {
                throw .invalidData(eventType: header.type, reason: error.description)
            }
            guard let object = value.objectValue else {
                throw .invalidData(eventType: header.type, reason: "it is \(value.typeName)")
            }
            for member in object.members { data[member.key] = member.value }
        }
        let payload = Array(stream.take(header.payloadLength) ?? [])
        pending = nil
        return WyomingEvent(type: header.type, data: data, payload: payload, version: header.version)
    }

    /// The next header line without its newline, or nil while it is incomplete.
    private mutating func takeLine() throws(WyomingDecodingError) -> ArraySlice<UInt8>? {
        switch stream.next() {
        case nil: nil
        case .tooLong?: throw .headerTooLong(limit: limits.maximumHeaderLength)
        case .line(let line)?: line
        }
    }

    private static func parseHeader(_ line: ArraySlice<UInt8>, limits: WyomingFrameLimits) throws(WyomingDecodingError) -> Header {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw .invalidHeader(error.description)
        }
        guard let object = value.objectValue else { throw .invalidHeader("it is \(value.typeName), not an object") }
        guard let type = object["type"]?.stringValue, !type.isEmpty else { throw .invalidHeader("it has no \"type\"") }
        let data: JSONObject
        switch object["data"] {
        case nil, .null?: data = [:]
        case .object(let inline)?: data = inline
        case let other?: throw .invalidHeader("its \"data\" is \(other.typeName), not an object")
        }
        let dataLength = try length(object, "data_length")
        guard dataLength <= limits.maximumDataLength else {
            throw .dataTooLarge(length: dataLength, limit: limits.maximumDataLength)
        }
        let payloadLength = try length(object, "payload_length")
        guard payloadLength <= limits.maximumPayloadLength else {
            throw .payloadTooLarge(length: payloadLength, limit: limits.maximumPayloadLength)
        }
        return Header(
            type: type, data: data, version: object["version"]?.stringValue,
            dataLength: dataLength, payloadLength: payloadLength
        )
    }

    private static func length(_ header: JSONObject, _ field: String) throws(WyomingDecodingError) -> Int {
        switch header[field] {
        case nil, .null?:
            return 0
        case .number(let number)?:
            guard let value = number.integerValue, value >= 0 else { throw .invalidLength(field: field, value: number.text) }
            return value
        case let other?:
            throw .invalidLength(field: field, value: other.typeName)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}

/// How large the parts of one incoming event may be. Anything larger is refused before it is
/// buffered, so a broken or hostile peer cannot make the reader hold unbounded memory.
public struct WyomingFrameLimits: Equatable, Sendable {
    /// Bytes in the header line, newline excluded.
    public var maximumHeaderLength: Int
    /// Bytes in the separate data block.
    public var maximumDataLength: Int
    /// Bytes of payload; an audio chunk is usually a few kilobytes.
    public var maximumPayloadLength: Int

    public init(maximumHeaderLength: Int = 64 * 1024, maximumDataLength: Int = 1024 * 1024, maximumPayloadLength: Int = 16 * 1024 * 1024) {
        self.maximumHeaderLength = maximumHeaderLength
        self.maximumDataLength = maximumDataLength
        self.maximumPayloadLength = maximumPayloadLength
    }
}

/// Why a byte stream is not a sequence of Wyoming events. After one of these the stream cannot
/// be resynchronised: the connection should be closed.
public enum WyomingDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No newline within the limit.
    case headerTooLong(limit: Int)
    /// The header line is not a JSON object with a string `type`.
    case invalidHeader(String)
    /// `data_length` or `payload_length` is not a whole number from 0 up.
    case invalidLength(field: String, value: String)
    case dataTooLarge(length: Int, limit: Int)
    case payloadTooLarge(length: Int, limit: Int)
    /// The separate data block is not a JSON object.
    case invalidData(eventType: String, reason: String)
    /// The stream ended inside an event.
    case truncated(String)

    public var description: String {
        switch self {
        case .headerTooLong(let limit):
            "an event header line is longer than \(limit) bytes"
        case .invalidHeader(let reason):
            "an event header is not valid: \(reason)"
        case .invalidLength(let field, let value):
            "an event header has \(field) \(value), which is not a byte count"
        case .dataTooLarge(let length, let limit):
            "an event announces \(length) bytes of data, more than the \(limit) allowed"
        case .payloadTooLarge(let length, let limit):
            "an event announces a payload of \(length) bytes, more than the \(limit) allowed"
        case .invalidData(let eventType, let reason):
            "the data of a \(eventType) event is not a JSON object: \(reason)"
        case .truncated(let reason):
            "the stream ended inside an event (\(reason))"
        }
    }
}
