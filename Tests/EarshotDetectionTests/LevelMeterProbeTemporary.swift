import EarshotAudio
import Testing
@testable import EarshotDetection

@Test func levelMeterProbeTemporary() throws {
    typealias Signal = LevelMeterTestSignal
    for hz in [150.0, 550, 1700, 5000] {
        let r = Signal.readings(of: Signal.silence(seconds: 0.5) + Signal.tone(hertz: hz, dBFS: -20, seconds: 1)).filter { $0.time > 0.7 }
        print("tone", hz, (0..<4).map { i in r.map { $0.bands[i] }.max()! })
    }
    let s = Signal.silence(seconds: 0.5) + Signal.tone(hertz: 440, dBFS: -20, seconds: 1) + Signal.silence(seconds: 1.5)
    let r = Signal.readings(of: s, configuration: .init(readingsPerSecond: 60))
    print("step", r.filter { $0.time > 0.45 && $0.time < 0.65 || $0.time > 1.45 && $0.time < 2.2 }.map { String(format: "%.2f:%.2f", $0.time, $0.level) }.joined(separator: " "))
    for name in ["utterance_after_silence", "real_utterance_in_white_noise", "two_phrases_long_pause"] {
        let f = try EndpointerFixture(name)
        for db in [-45.0, -25, -12] {
            let x = Signal.scaled(f.clip.samples, toDBFS: db, over: f.segments[0])
            let rr = Signal.readings(of: x, configuration: .init(readingsPerSecond: 20))
            print(name, db, rr.map { String(format: "%.0f", $0.level * 9) }.joined())
            print(name, db, "B", (0..<4).map { i in rr.map { String(format: "%.0f", $0.bands[i] * 9) }.joined() }.joined(separator: "\n   "))
        }
    }
}
