/// Delays between reconnection attempts: `initial`, doubling, never above `maximum`.
public struct RetryBackoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    private var attempts = 0

    /// The defaults keep the daemon listening again within a second of the server's return:
    /// 0.1 s, 0.2 s, 0.4 s, then every 0.5 s.
    public init(initial: Duration = .milliseconds(100), maximum: Duration = .milliseconds(500)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt.
    public mutating func next() -> Duration {
        let factor = 1 << min(attempts, 20)
        attempts += 1
        return min(initial * factor, maximum)
    }

    /// Starts over after a successful connection.
    public mutating func reset() { attempts = 0 }
}
