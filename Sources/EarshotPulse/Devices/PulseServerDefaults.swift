/// The server's default source and sink (nil: it has none), which the streams follow unless a
/// device was requested.
struct PulseServerDefaults: Sendable, Hashable {
    var source: String?
    var sink: String?

    init(source: String?, sink: String?) {
        self.source = source
        self.sink = sink
    }

    init(_ info: PulseServerInfo) {
        self.init(source: info.defaultSource, sink: info.defaultSink)
    }

    func device(_ role: PulseStreamRole) -> String? {
        switch role {
        case .capture: source
        case .playback: sink
        }
    }
}
