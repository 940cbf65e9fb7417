/// The daemon's `device` event: the sound server came or went, or the source or sink in use
/// changed. Names are `nil` while unknown (written as `null`).
public struct DeviceEvent: Hashable, Sendable {
    public enum Change: String, Hashable, Sendable, CaseIterable {
        case connected, disconnected, source, sink
    }

    public var change: Change
    public var source: String?
    public var sink: String?
    public var server: String?
    /// Audio time of the event.
    public var time: Double

    public init(change: Change, source: String?, sink: String?, server: String?, time: Double) {
        self.change = change
        self.source = source
        self.sink = sink
        self.server = server
        self.time = time
    }
}
