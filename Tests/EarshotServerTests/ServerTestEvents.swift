import EarshotProtocol

/// Events for the publishing tests.
enum ServerTestEvents {
    /// A mic level reading stamped `time`.
    static func level(_ time: Double, source: LevelEvent.Source = .mic) -> SocketEvent {
        .level(LevelEvent(source: source, level: 0.5, rmsDBFS: -20, bands: [0, 0, 0, 0], time: time))
    }

    static func state(turn: Int, time: Double) -> SocketEvent {
        .state(StateEvent(state: VoiceState(phase: .listening, turn: turn, muted: false, controls: [.dismiss, .mute]), time: time))
    }

    static func device(time: Double) -> SocketEvent {
        .device(DeviceEvent(change: .source, source: "alsa_input.usb-mic", sink: nil, server: "PulseAudio", time: time))
    }

    /// The stamp of the `index`-th reading (from 1) at `rate` per second: the end of the 10 ms
    /// frame that completes it.
    static func readingTime(_ index: Int, rate: Int) -> Double {
        Double((index * 100 + rate - 1) / rate) / 100
    }
}
