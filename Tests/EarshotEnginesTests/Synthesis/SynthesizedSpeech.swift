import EarshotSpeech
import Foundation

/// Everything one synthesis produced, and how quickly.
struct SynthesizedSpeech {
    var chunks: [SpeechChunk] = []
    var firstChunkLatency: Duration?
    var elapsed: Duration = .zero

    /// Iterates `stream` to its end.
    static func collect(_ stream: AsyncThrowingStream<SpeechChunk, any Error>) async throws -> SynthesizedSpeech {
        var speech = SynthesizedSpeech()
        let start = ContinuousClock.now
        for try await chunk in stream {
            if speech.firstChunkLatency == nil { speech.firstChunkLatency = ContinuousClock.now - start }
            speech.chunks.append(chunk)
        }
        speech.elapsed = ContinuousClock.now - start
        return speech
    }

    var samples: [Int16] { chunks.flatMap(\.samples) }
    var sampleRates: Set<Int> { Set(chunks.map(\.sampleRate)) }
    var duration: Double { chunks.reduce(0) { $0 + $1.duration } }

    /// Root mean square level in 16-bit units.
    var rms: Double {
        let samples = samples
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// The median fundamental frequency of the loud 40 ms frames, by autocorrelation over
    /// 70–400 Hz; nil without voiced frames.
    var medianPitch: Double? {
        guard let sampleRate = sampleRates.first else { return nil }
        let samples = samples.map(Double.init)
        let frame = sampleRate / 25
        let lags = (sampleRate / 400)...(sampleRate / 70)
        var pitches: [Double] = []
        for start in stride(from: 0, to: samples.count - frame - lags.upperBound, by: frame) {
            let window = samples[start..<(start + frame)]
            let energy = window.reduce(0) { $0 + $1 * $1 }
            guard (energy / Double(frame)).squareRoot() > 1_000 else { continue }
            func correlation(_ lag: Int) -> Double {
                window.indices.reduce(0) { $0 + samples[$1] * samples[$1 + lag] } / energy
            }
            if let best = lags.max(by: { correlation($0) < correlation($1) }), correlation(best) > 0.5 {
                pitches.append(Double(sampleRate) / Double(best))
            }
        }
        return pitches.isEmpty ? nil : pitches.sorted()[pitches.count / 2]
    }

    var realTimeFactor: Double { duration > 0 ? elapsed / .seconds(duration) : 0 }
}

extension Double {
    /// Three significant digits, for printing.
    var rounded: String { formatted(.number.precision(.significantDigits(3))) }
}

extension Duration {
    var millisecondsText: String {
        (Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15)
            .formatted(.number.precision(.fractionLength(1))) + " ms"
    }
}

/// A text long enough to take seconds to synthesize whole: two hundred sentences.
let longText = Array(
    repeating: "This sentence is one of many in a long reply that nobody will listen to until the end.",
    count: 200
).joined(separator: " ")
