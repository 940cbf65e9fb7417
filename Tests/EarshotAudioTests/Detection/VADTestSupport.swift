import EarshotAudio
@testable import EarshotAudio
import Foundation

/// Shared inputs for the VAD tests: the fixture recordings and small synthetic signals.
enum VADTestSupport {
    /// `Tests/Fixtures/vad`, found from this file's location.
    static var fixtureDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/vad").path
    }

    static func fixtureClip(_ file: String) throws -> AudioClip {
        try WAVFile.read(fixtureDirectory + "/" + file)
    }

    /// Deterministic pseudo-random values in -1...1 (a 64-bit LCG), so failures reproduce.
    static func noise(count: Int, amplitude: Float, seed: UInt64 = 1) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
    }

    /// Every verdict of a fresh detector over `clip`, one per frame.
    static func verdicts(_ clip: AudioClip, configuration: SpectralVAD.Configuration = .init()) -> [VoiceActivity] {
        var detector = SpectralVAD(configuration: configuration)
        return detector.verdicts(for: clip)
    }
}
