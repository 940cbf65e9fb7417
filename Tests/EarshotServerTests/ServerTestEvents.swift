import EarshotPipeline
import EarshotProtocol
import EarshotTurns

/// Events for the publishing tests.
enum ServerTestEvents {
    /// A mic level reading stamped `time`.
    static func level(_ time: Double, source: LevelSource = .mic) -> SocketEvent {
        .pipeline(.level(source, .init(time: time, level: 0.5, rmsDBFS: -20, bands: .zero)))
    }

    static func state(turn: Int, time: Double) -> SocketEvent {
        .pipeline(.state(TurnSnapshot(phase: .listening, turn: turn, muted: false), time: time))
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
