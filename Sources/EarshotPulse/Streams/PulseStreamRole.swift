/// The two streams the engine keeps open on a connected server.
enum PulseStreamRole: Sendable, Hashable {
    /// The record stream on a source: the microphone.
    case capture
    /// The playback stream on a sink: the speaker.
    case playback

    /// "source" or "sink", for messages.
    var deviceKind: String {
        switch self {
        case .capture: "source"
        case .playback: "sink"
        }
    }
}
