import EarshotProtocol
import Testing

/// The `config` event a reload of the configuration file sends.
@Suite struct ProtocolConfigEventTests {
    @Test func aReloadIsOneLineNamingWhatChanged() {
        let event = ConfigReloadEvent(
            file: "/home/me/.config/earshot/config.toml", applied: ["listening.end_silence_ms", "speech.voice"],
            restartNeeded: ["daemon.socket"], overridden: [], time: 4.88
        )
        let line = String(decoding: SocketEvent.config(event).jsonLine(wall: 1_795_292_704.58409), as: UTF8.self)
        #expect(line == #"{"event":"config","change":"reloaded","file":"/home/me/.config/earshot/config.toml","applied":["listening.end_silence_ms","speech.voice"],"restart_needed":["daemon.socket"],"overridden":[],"wall":1795292704.584090,"t":4.88}"# + "\n")
        #expect(SocketEvent.config(event).topic == .config)
    }
}
