import EarshotClient
import EarshotProtocol
import Testing

/// The watch's keys send only the controls the daemon offers.
@Suite struct WatchKeysTests {
    static func model(state: String, controls: [String]) -> WatchModel {
        var model = WatchModel(socketPath: "/tmp/e.sock")
        model.state = state
        model.controls = controls
        return model
    }

    @Test func eachOfferedControlHasItsKey() {
        let speaking = Self.model(state: "speaking", controls: ["stop", "dismiss", "mute"])
        #expect(WatchKeys.command(for: "s", in: speaking) == .stop)
        #expect(WatchKeys.command(for: "d", in: speaking) == .dismiss)
        #expect(WatchKeys.command(for: "m", in: speaking) == .mute)
        #expect(WatchKeys.command(for: "c", in: speaking) == nil)
        #expect(WatchKeys.command(for: "v", in: speaking) == nil)
    }

    @Test func theMuteKeyUnmutesWhenMuted() {
        let muted = Self.model(state: "hearing", controls: ["cancel", "dismiss", "unmute"])
        #expect(WatchKeys.command(for: "m", in: muted) == .unmute)
        #expect(WatchKeys.command(for: "c", in: muted) == .cancel)
    }

    @Test func startIsOnlyForIdle() {
        #expect(WatchKeys.command(for: "v", in: Self.model(state: "idle", controls: [])) == .start)
        #expect(WatchKeys.command(for: "x", in: Self.model(state: "idle", controls: [])) == nil)
    }
}
