/// An `error` event about the sound server (e.g. `sound_server_lost`), with the delay before the
/// daemon tries again.
public struct SoundServerError: Hashable, Sendable {
    public var code: String
    /// A sentence to show the person.
    public var message: String
    /// Seconds until the next attempt to reconnect; `nil` when none is planned (key omitted).
    public var retryIn: Double?
    /// Audio time of the event.
    public var time: Double

    public init(code: String, message: String, retryIn: Double?, time: Double) {
        self.code = code
        self.message = message
        self.retryIn = retryIn
        self.time = time
    }
}
