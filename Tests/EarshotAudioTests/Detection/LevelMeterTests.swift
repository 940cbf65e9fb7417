import EarshotAudio
import EarshotTestSupport
import Testing

@testable import EarshotAudio

@Suite struct LevelMeterTests {
    private typealias Signal = LevelMeterTestSignal

    private func seconds(_ frame: Int) -> Double { Double(frame) * AudioFrame.duration }

    @Test func digitalSilenceRestsAtZeroAndTheDBFSFloor() {
        let readings = Signal.readings(of: Signal.silence(seconds: 2))
        #expect(readings.count == 60)
        for reading in readings {
            #expect(reading.level == 0)
            #expect(reading.rmsDBFS == LevelMeter.silenceDBFS)
            #expect(reading.bands == .zero)
        }
    }

    @Test(arguments: [-70.0, -50.0, -30.0])
    func steadyBackgroundRestsNearZero(dBFS: Double) {
        let readings = Signal.readings(of: Signal.whiteNoise(dBFS: dBFS, seconds: 5, seed: 3))
        let maximumLevel = readings.map(\.level).max() ?? 1
        let maximumBand = readings.map { max($0.bands.low, $0.bands.lowMid, $0.bands.highMid, $0.bands.high) }.max() ?? 1
        #expect(maximumLevel < 0.05, "level \(maximumLevel)")
        #expect(maximumBand < 0.05, "band \(maximumBand)")
        let averageDBFS = readings.map(\.rmsDBFS).reduce(0, +) / Float(readings.count)
        #expect(abs(Double(averageDBFS) - dBFS) < 0.5)
    }

    @Test func backgroundAfterLeadingDigitalSilenceRestsNearZero() {
        let samples = Signal.silence(seconds: 0.5) + Signal.whiteNoise(dBFS: -50, seconds: 3, seed: 9)
        let readings = Signal.readings(of: samples)
        let maximumLevel = readings.map(\.level).max() ?? 1
        #expect(maximumLevel < 0.05, "level \(maximumLevel)")
    }

    @Test(arguments: [-45.0, -12.0])
    func speechAtAnyLoudnessReachesAHighLevel(dBFS: Double) throws {
        let fixture = try EndpointerFixture("utterance_after_silence")
        let speech = fixture.segments[0]
        let samples = Signal.scaled(fixture.clip.samples, toDBFS: dBFS, over: speech)
        let readings = Signal.readings(of: samples)
        let during = readings.filter { $0.time > seconds(speech.lowerBound) && $0.time <= seconds(speech.upperBound) }
        let before = readings.filter { $0.time <= seconds(speech.lowerBound) - 0.05 }
        let peak = during.map(\.level).max() ?? 0
        let average = during.map(\.level).reduce(0, +) / Float(max(during.count, 1))
        #expect(peak > 0.9, "peak \(peak)")
        #expect(average > 0.3, "average \(average)")
        #expect(before.allSatisfy { $0.level == 0 })
        for band in 0..<LevelReading.Bands.count {
            #expect((during.map { $0.bands[band] }.max() ?? 0) > 0.5, "band \(band)")
        }
    }

    @Test func quietSpeechInNoiseAnimatesWhileTheNoiseAloneRests() throws {
        let fixture = try EndpointerFixture("real_utterance_in_white_noise")
        let speech = fixture.segments[0]
        let samples = Signal.scaled(fixture.clip.samples, toDBFS: -45, over: speech)
        let readings = Signal.readings(of: samples)
        let before = readings.filter { $0.time <= seconds(speech.lowerBound) - 0.05 }
        let during = readings.filter { $0.time > seconds(speech.lowerBound) && $0.time <= seconds(speech.upperBound) }
        let restingLevel = before.map(\.level).max() ?? 1
        let peak = during.map(\.level).max() ?? 0
        #expect(restingLevel < 0.05, "resting \(restingLevel)")
        #expect(peak > 0.8, "peak \(peak)")
    }

    @Test func attackIsFasterThanRelease() {
        let samples = Signal.quietRoom(seconds: 0.5) + Signal.tone(hertz: 440, dBFS: -20, seconds: 1)
            + Signal.quietRoom(seconds: 1.5)
        let readings = Signal.readings(of: samples, configuration: .init(readingsPerSecond: 60))
        let toneOn = 0.5
        let toneOff = 1.5
        let risen = readings.first { $0.time > toneOn && $0.level >= 0.9 }?.time ?? .infinity
        let fallen = readings.first { $0.time > toneOff && $0.level <= 0.1 }?.time ?? .infinity
        let riseTime = risen - toneOn
        let fallTime = fallen - toneOff
        #expect(riseTime <= 0.06, "rise \(riseTime)")
        #expect(fallTime >= 0.2 && fallTime <= 0.8, "fall \(fallTime)")
        #expect(riseTime * 4 < fallTime)
    }

    @Test(arguments: [10, 30, 60])
    func emitsRateTimesDurationReadings(rate: Int) {
        let seconds = 3.0
        let readings = Signal.readings(
            of: Signal.whiteNoise(dBFS: -30, seconds: seconds, seed: 1),
            configuration: .init(readingsPerSecond: rate))
        #expect(abs(readings.count - Int(Double(rate) * seconds)) <= 1)
        // A reading is due at the end of the frame that reaches the next k / rate instant.
        for (k, reading) in readings.enumerated() {
            let instantFrames = ((k + 1) * 100 + rate - 1) / rate
            #expect(reading.time == Double(instantFrames) * AudioFrame.duration)
        }
    }

    @Test func ratesOutsideOneToSixtyAreClamped() {
        let samples = Signal.silence(seconds: 2)
        #expect(LevelMeter.Configuration(readingsPerSecond: 100).effectiveReadingsPerSecond == 60)
        #expect(Signal.readings(of: samples, configuration: .init(readingsPerSecond: 100)).count == 120)
        #expect(Signal.readings(of: samples, configuration: .init(readingsPerSecond: 0)).count == 2)
    }

    @Test func readingsAggregateTheFramesSinceThePreviousOne() {
        // After silence, frames alternate between a tone and silence: each reading's RMS is the
        // energy average (3 dB under the tone, where a dB average would be far lower) and its
        // level the highest of its frames.
        var samples = Signal.quietRoom(seconds: 0.5)
        for _ in 0..<25 {
            samples += Signal.tone(hertz: 1_000, dBFS: -20, seconds: 0.01) + Signal.quietRoom(seconds: 0.01)
        }
        let readings = Signal.readings(of: samples, configuration: .init(readingsPerSecond: 10))
        #expect(readings.count == 10)
        for reading in readings.dropFirst(5) {
            #expect(abs(reading.rmsDBFS - (-23.01)) < 0.1, "rms \(reading.rmsDBFS)")
            #expect(reading.level > 0.5, "level \(reading.level)")
        }
    }

    @Test(arguments: [(150.0, 0), (550.0, 1), (1_700.0, 2), (5_000.0, 3)])
    func bandLevelsFollowABandLimitedTone(hertz: Double, band: Int) {
        let samples = Signal.quietRoom(seconds: 0.5) + Signal.tone(hertz: hertz, dBFS: -20, seconds: 1)
        let readings = Signal.readings(of: samples).filter { $0.time > 0.7 }
        for index in 0..<LevelReading.Bands.count {
            let value = readings.map { $0.bands[index] }.max() ?? 0
            if index == band {
                #expect(value > 0.9, "\(hertz) Hz in band \(index): \(value)")
            } else {
                #expect(value < 0.25, "\(hertz) Hz leaks into band \(index): \(value)")
            }
        }
    }

    @Test func nothingIsEverNaNOrOutOfRange() {
        var generator = SeededGenerator(seed: 11)
        var samples = Signal.whiteNoise(dBFS: -10, seconds: 1, seed: 5) + Signal.silence(seconds: 1)
        samples += (0..<16_000).map { $0 % 50 < 25 ? 1 : -1 }
        // Denormal samples of random sign.
        samples += (0..<16_000).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()) & 0x807F_FFFF) }
        samples += [.nan, .infinity, -.infinity] + Signal.silence(seconds: 0.5) + Signal.tone(hertz: 300, dBFS: -3, seconds: 1)
        samples += Signal.silence(seconds: 0.5)
        let readings = Signal.readings(of: samples, configuration: .init(readingsPerSecond: 60))
        #expect(readings.count > 300)
        for reading in readings {
            let values = [reading.level, reading.rmsDBFS, reading.bands.low, reading.bands.lowMid,
                          reading.bands.highMid, reading.bands.high]
            #expect(values.allSatisfy { $0.isFinite }, "\(reading)")
            #expect((0...1).contains(reading.level))
            #expect(reading.rmsDBFS >= LevelMeter.silenceDBFS && reading.rmsDBFS <= 1)
            #expect((0..<4).allSatisfy { (0...1).contains(reading.bands[$0]) })
        }
        // The meter recovers from the corrupt frame: the final tone (4.5 to 5.5 s) animates again.
        #expect(readings.contains { $0.time > 4.6 && $0.time < 5.5 && $0.level > 0.9 })
    }

    @Test func resetForgetsTheStream() {
        var meter = LevelMeter()
        let loud = AudioClip(samples: Signal.tone(hertz: 440, dBFS: -10, seconds: 0.5))
        for frame in loud.frames { _ = meter.process(frame) }
        meter.reset()
        let readings = AudioClip(samples: Signal.silence(seconds: 0.5)).frames.compactMap { meter.process($0) }
        #expect(readings.count == 15)
        #expect(readings.allSatisfy { $0.level == 0 && $0.rmsDBFS == LevelMeter.silenceDBFS })
    }
}
