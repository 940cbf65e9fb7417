import EarshotAudio
import EarshotTestSupport
import Foundation

@testable import EarshotAudio

/// Generated test signals (16 kHz samples) and a helper that meters them.
enum LevelMeterTestSignal {
    static let rate = Double(AudioFrame.sampleRate)

    static func silence(seconds: Double) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * rate))
    }

    /// A very quiet room (white noise at −90 dBFS): unlike digital silence, it gives the meter a
    /// noise floor from the first frame on.
    static func quietRoom(seconds: Double, seed: UInt64 = 99) -> [Float] {
        whiteNoise(dBFS: -90, seconds: seconds, seed: seed)
    }

    /// A sine of RMS `dBFS` (re full-scale DC, so a full-scale sine is −3).
    static func tone(hertz: Double, dBFS: Double, seconds: Double) -> [Float] {
        let amplitude = pow(10, dBFS / 20) * 2.0.squareRoot()
        return (0..<Int(seconds * rate)).map { Float(amplitude * sin(2 * Double.pi * hertz * Double($0) / rate)) }
    }

    static func whiteNoise(dBFS: Double, seconds: Double, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        let scale = pow(10, dBFS / 20) * 3.0.squareRoot()
        return (0..<Int(seconds * rate)).map { _ in
            Float(scale * (Double(generator.next() >> 11) / Double(1 << 53) * 2 - 1))
        }
    }

    /// `samples` scaled so that their RMS over `frames` is `dBFS`.
    static func scaled(_ samples: [Float], toDBFS dBFS: Double, over frames: Range<Int>) -> [Float] {
        let span = samples[frames.lowerBound * AudioFrame.sampleCount..<frames.upperBound * AudioFrame.sampleCount]
        let power = span.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(span.count)
        let gain = Float(pow(10, dBFS / 20) / power.squareRoot())
        return samples.map { $0 * gain }
    }

    static func readings(
        of samples: [Float],
        configuration: LevelMeter.Configuration = .init()
    ) -> [LevelReading] {
        var meter = LevelMeter(configuration: configuration)
        return AudioClip(samples: samples).frames.compactMap { meter.process($0) }
    }
}
