import EarshotProtocol
import EarshotTestSupport
import Testing

@testable import EarshotServer

@Suite struct ServerLevelPacerTests {
    /// Stamps of readings taken `rate` times a second, each at the end of the 10 ms frame that
    /// completes it, as the level meter stamps them.
    static func stamps(rate: Int, seconds: Int) -> [Double] {
        (1...(rate * seconds)).map { reading in
            let frame = (reading * 100 + rate - 1) / rate
            return Double(frame) / 100
        }
    }

    private func admitted(_ stamps: [Double], levelHz: Int) -> [Double] {
        var pacer = LevelPacer(levelHz: levelHz)
        return stamps.filter { pacer.admit(.mic, time: $0) }
    }

    @Test func passesEveryReadingAtOrBelowTheRequestedRate() {
        for rate in [10, 20, 30, 50, 60] {
            let stamps = Self.stamps(rate: rate, seconds: 10)
            #expect(admitted(stamps, levelHz: rate) == stamps, "readings at \(rate) Hz, subscribed at \(rate) Hz")
            #expect(admitted(stamps, levelHz: 60) == stamps, "readings at \(rate) Hz, subscribed at 60 Hz")
        }
    }

    @Test func thinsFasterReadingsToTheRequestedRate() {
        let stamps = Self.stamps(rate: 60, seconds: 10)
        for levelHz in [1, 2, 5, 10, 15, 20, 25, 30, 40, 50] {
            let passed = admitted(stamps, levelHz: levelHz)
            #expect(abs(passed.count - levelHz * 10) <= 1, "\(passed.count) readings at \(levelHz) Hz over 10 s")
            let gaps = zip(passed.dropFirst(), passed).map { $0 - $1 }
            // Stamps are rounded up to 10 ms frames, so a gap can be one frame short of 1/level_hz.
            #expect(gaps.allSatisfy { $0 >= 1 / Double(levelHz) - 0.01 - 1e-9 }, "gaps at \(levelHz) Hz")
        }
    }

    @Test func ratesThatDoNotDivideTheReadingsStayBelowTheirRequest() {
        let stamps = Self.stamps(rate: 60, seconds: 10)
        for levelHz in [45, 55, 59] {
            let passed = admitted(stamps, levelHz: levelHz).count
            #expect(passed <= levelHz * 10 + 1 && passed >= 400, "\(passed) readings at \(levelHz) Hz over 10 s")
        }
    }

    @Test func neverExceedsTheRateWhateverTheReadings() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let levelHz = Int.random(in: 1...60, using: &generator)
            var frame = 0
            var stamps: [Double] = []
            while frame < 500 {
                frame += Int.random(in: 1...4, using: &generator)
                stamps.append(Double(frame) / 100)
            }
            let passed = admitted(stamps, levelHz: levelHz)
            // Within any one second of audio, at most level_hz readings (plus the slot at its edge).
            for start in stride(from: 0.0, to: 5.0, by: 0.05) {
                let inWindow = passed.filter { $0 >= start && $0 < start + 1 - 1e-9 }.count
                #expect(inWindow <= levelHz + 1, "level_hz \(levelHz): \(inWindow) in [\(start), \(start + 1))")
            }
        }
    }

    @Test func pacesEachSourceOnItsOwn() {
        var pacer = LevelPacer(levelHz: 10)
        let passed = [
            pacer.admit(.mic, time: 0.01), pacer.admit(.speaker, time: 0.01), pacer.admit(.mic, time: 0.05),
            pacer.admit(.mic, time: 0.10), pacer.admit(.speaker, time: 0.05),
        ]
        #expect(passed == [true, true, false, true, false])
    }

    @Test func startsAgainWhenTimeGoesBack() {
        var pacer = LevelPacer(levelHz: 1)
        let passed = [pacer.admit(.mic, time: 5.0), pacer.admit(.mic, time: 5.5), pacer.admit(.mic, time: 0.02)]
        #expect(passed == [true, false, true])
    }
}
