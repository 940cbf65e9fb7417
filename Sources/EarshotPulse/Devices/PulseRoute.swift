/// Which device one of the engine's streams should use and which it is on.
struct PulseRoute: Sendable, Hashable {
    /// The device asked for; nil follows the server's default.
    var requested: String?
    /// The device the stream is on, as last reported to the daemon; nil while there is no stream.
    var current: String?

    init(requested: String?) {
        self.requested = requested
    }

    /// The device to open the stream on, given the server's default.
    func target(default defaultName: String?) -> String? {
        requested ?? defaultName
    }
}
