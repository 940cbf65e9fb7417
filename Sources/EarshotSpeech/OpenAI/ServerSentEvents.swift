/// One event of a `text/event-stream` body: what servers send with `stream=true`.
public struct ServerSentEvent: Equatable, Sendable {
    /// The `event:` field; "message" when the server named none.
    public var type: String
    /// The `data:` lines, joined with newlines.
    public var data: String
    public var id: String?

    public init(type: String = "message", data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// Reads server-sent events from a body as it arrives, in pieces cut anywhere, following the
/// WHATWG event-stream rules: lines end with CR LF, LF or CR; `:` starts a comment; a blank
/// line ends an event; an event without data is dropped.
///
/// An event larger than `maximumEventBytes` fails the stream: a server that never ends its
/// event must not grow the daemon's memory without bound.
public struct ServerSentEventReader: Sendable {
    public static let defaultMaximumEventBytes = 1 << 20

    public let maximumEventBytes: Int
    private var line: [UInt8] = []
    private var lastByteWasCR = false
    private var atStreamStart = true
    private var type = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var lastID: String?
    private var eventBytes = 0

    public init(maximumEventBytes: Int = defaultMaximumEventBytes) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Takes the next piece of the body; returns the events it completed.
    public mutating func read(_ bytes: some Sequence<UInt8>) throws(ServerSentEventError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if lastByteWasCR {
                lastByteWasCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                lastByteWasCR = true
                try endLine(into: &events)
            case 0x0A:
                try endLine(into: &events)
            default:
                line.append(byte)
                eventBytes += 1
                if eventBytes > maximumEventBytes { throw .eventTooLarge(maximumEventBytes) }
            }
        }
        return events
    }

    /// The body has ended: an event the server did not end with a blank line is dropped, as the
    /// rules say.
    public mutating func finish() {
        line.removeAll()
        resetEvent()
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) throws(ServerSentEventError) {
        defer { line.removeAll(keepingCapacity: true) }
        if atStreamStart {
            atStreamStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else {
            if hasData {
                events.append(ServerSentEvent(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), id: lastID))
            }
            resetEvent()
            return
        }
        if line[0] == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { line.index(after: $0) } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch field {
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastID = String(decoding: value, as: UTF8.self) }
        default:
            break  // `retry` and unknown fields: a client that does not reconnect has no use for them.
        }
    }

    private mutating func resetEvent() {
        type = ""
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventBytes = 0
    }
}

public enum ServerSentEventError: Error, Equatable, Sendable, CustomStringConvertible {
    case eventTooLarge(Int)

    public var description: String {
        switch self {
        case .eventTooLarge(let limit): "an event of more than \(limit) bytes"
        }
    }
}
