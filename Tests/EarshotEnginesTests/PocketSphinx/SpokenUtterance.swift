import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation

/// A sentence spoken by flite, cut into the 10 ms chunks capture delivers.
struct SpokenUtterance: Sendable {
    static let sampleRate = 16_000
    static let chunkSamples = 160

    let text: String
    let samples: [Int16]

    /// Speaks `text` with a 16 kHz flite voice, after 300 ms of faint noise (the prefix padding
    /// capture keeps) and followed by 200 ms more.
    static func speak(_ text: String, voice: FliteVoice) async throws -> SpokenUtterance {
        let speech = try await EngineGate.embeddedSpeech.sharing {
            var speech: [Int16] = []
            for try await chunk in FliteSynthesizer().synthesize(text, settings: Voice.Flite(voice: voice.rawValue)) {
                precondition(chunk.sampleRate == sampleRate, "\(voice) speaks at \(chunk.sampleRate) Hz")
                speech += chunk.samples
            }
            return speech
        }
        var generator = SeededGenerator(seed: UInt64(text.utf8.count))
        func noise(seconds: Double) -> [Int16] {
            (0..<Int(seconds * Double(sampleRate))).map { _ in Int16.random(in: -30...30, using: &generator) }
        }
        let noisy = speech.map { Int16(clamping: Int($0) + Int.random(in: -30...30, using: &generator)) }
        return SpokenUtterance(text: text, samples: noise(seconds: 0.3) + noisy + noise(seconds: 0.2))
    }

    /// The same utterance under white noise `snr` dB below the speech's level.
    func inNoise(snr: Double) -> SpokenUtterance {
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        // Uniform noise on [-a, a] has the power a²/3.
        let amplitude = (3 * power / pow(10, snr / 10)).squareRoot()
        var generator = SeededGenerator(seed: UInt64(text.utf8.count) + 1)
        let noisy = samples.map { Int16(clamping: Int($0) + Int((Double.random(in: -1...1, using: &generator) * amplitude).rounded())) }
        return SpokenUtterance(text: text, samples: noisy)
    }

    var duration: Double { Double(samples.count) / Double(Self.sampleRate) }

    var chunks: [[Int16]] {
        stride(from: 0, to: samples.count, by: Self.chunkSamples).map {
            Array(samples[$0..<min($0 + Self.chunkSamples, samples.count)])
        }
    }

    /// The whole utterance, already captured.
    var audio: UtteranceAudio { UtteranceAudio(chunks: chunks) }
}
