/// How long a Wyoming client waits.
public struct WyomingTimeouts: Equatable, Sendable {
    /// For the server to accept the connection.
    public var connect: Duration
    /// For each answer the server owes: its info, then, once the audio has ended, the transcript
    /// (or, when synthesizing, the next piece of audio).
    public var response: Duration

    public init(connect: Duration = .seconds(3), response: Duration = .seconds(15)) {
        self.connect = connect
        self.response = response
    }
}
