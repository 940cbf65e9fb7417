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
