/// A `config` event: the daemon read its configuration file again. Keys are named by their
/// dotted path (`listening.end_silence_ms`).
public struct ConfigReloadEvent: Hashable, Sendable {
    /// The file read.
    public var file: String
    /// Changed keys now in force.
    public var applied: [String]
    /// Changed keys that take effect at the next start (the daemon keeps the old value).
    public var restartNeeded: [String]
    /// Changed keys that a command-line option overrides, so the change has no effect.
    public var overridden: [String]
    /// Audio time of the event.
    public var time: Double

    public init(file: String, applied: [String], restartNeeded: [String], overridden: [String], time: Double) {
        self.file = file
        self.applied = applied
        self.restartNeeded = restartNeeded
        self.overridden = overridden
        self.time = time
    }
}
