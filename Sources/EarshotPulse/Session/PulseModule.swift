/// A module loaded on the sound server, as `pactl list modules` shows it.
struct PulseModule: Sendable, Hashable {
    var index: UInt32
    var name: String
    var argument: String
}
