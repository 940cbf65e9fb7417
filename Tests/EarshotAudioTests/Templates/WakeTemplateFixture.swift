import EarshotAudio
import Foundation

/// Speech for the template tests: flite slt saying "hey computer" (1.0–1.73 s) then "turn on the
/// kitchen lights" (`Tests/Fixtures/speech/wake_request_slt.wav`), and other takes made from it.
enum WakeTemplateFixture {
    static let speech = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/speech")

    static func clip(_ name: String) throws -> AudioClip {
        try WAVFile.read(speech.appendingPathComponent(name).path)
    }

    /// The phrase alone, with 0.5 s of quiet around it, said `stretch` times as long (and lower).
    static func phraseTake(stretch: Double = 1, gain: Float = 1) throws -> AudioClip {
        let samples = try clip("wake_request_slt.wav").samples
        let phrase = Array(samples[16_000..<Int(1.76 * 16_000)]).map { $0 * gain }
        let said = stretch == 1 ? phrase : Resampler.resample(phrase, from: 16_000, to: Int((16_000 * stretch).rounded()))
        return AudioClip(samples: quiet(0.5) + said + quiet(0.5))
    }

    /// "turn on the kitchen lights" alone.
    static func otherWords() throws -> AudioClip {
        let samples = try clip("wake_request_slt.wav").samples
        return AudioClip(samples: quiet(0.5) + Array(samples[Int(1.98 * 16_000)..<Int(3.4 * 16_000)]) + quiet(0.5))
    }

    static func quiet(_ seconds: Double) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * 16_000))
    }
}
