/// An `error` event: something a person should know went wrong (the turn machine gave up on a
/// peer, a transcription or a reply failed, the sound server went away, a reload failed).
public struct ErrorEvent: Hashable, Sendable {
    /// A stable name for programs: one of ``ProtocolError/Code`` from this daemon, any string
    /// from a newer one.
    public var code: String
    /// A sentence to show the person.
    public var message: String
    /// Seconds until Earshot tries again by itself; `nil` when it will not (key omitted).
    public var retryIn: Double?
    /// Audio time of the event.
    public var time: Double

    public init(code: ProtocolError.Code, message: String, retryIn: Double? = nil, time: Double) {
        self.init(code: code.rawValue, message: message, retryIn: retryIn, time: time)
    }

    /// An event as read from a line, whose code this version may not know.
    public init(code: String, message: String, retryIn: Double? = nil, time: Double) {
        self.code = code
        self.message = message
        self.retryIn = retryIn
        self.time = time
    }
}
