import EarshotAudio
import Foundation

/// Measurements for comparing what went into the sound server with what came out.
enum SignalMeasure {
    /// How closely what the speaker's monitor heard must match what was played: its correlation,
    /// and its level's distance from the one played. Under a sanitizer the starved PipeWire graph
    /// can drop a few milliseconds (CI, AddressSanitizer: a 0.5 s tone correlated 0.984 at
    /// amplitude 0.516): that run checks that the sound arrives, the plain build that it arrives intact.
    static let likeness = LiveAudio.isSanitized ? 0.95 : 0.99
    static let levelTolerance = LiveAudio.isSanitized ? 0.05 : 0.01

    static func rms<C: Collection<Float>>(_ samples: C) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func rms(_ frame: AudioFrame) -> Double {
        var sum = 0.0
        for i in 0..<AudioFrame.sampleCount { sum += Double(frame.samples[i]) * Double(frame.samples[i]) }
        return (sum / Double(AudioFrame.sampleCount)).squareRoot()
    }

    /// Pearson correlation of `a` and `b` over their common length.
    static func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
        let count = min(a.count, b.count)
        guard count > 1 else { return 0 }
        let (a, b) = (a.prefix(count), b.prefix(count))
        let meanA = a.reduce(0.0) { $0 + Double($1) } / Double(count)
        let meanB = b.reduce(0.0) { $0 + Double($1) } / Double(count)
        var (cross, squaresA, squaresB) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            let (dx, dy) = (Double(x) - meanA, Double(y) - meanB)
            cross += dx * dy
            squaresA += dx * dx
            squaresB += dy * dy
        }
        return squaresA > 0 && squaresB > 0 ? cross / (squaresA * squaresB).squareRoot() : 0
    }

    /// Where `reference` begins inside `recording`: the lag with the best correlation near the
    /// first sound in each, or nil when the recording holds no sound. Tests run side by side on
    /// the shared threads: a slice-by-slice search there (2 to 3 s in a debug build) held up the
    /// others' waits, so this one loops over buffers with the reference's statistics taken once.
    static func offset(of reference: [Float], in recording: [Float], threshold: Float = 0.003) -> Int? {
        guard let firstInRecording = recording.firstIndex(where: { abs($0) > threshold }),
              let firstInReference = reference.firstIndex(where: { abs($0) > threshold }) else { return nil }
        let estimate = firstInRecording - firstInReference
        let window = min(4_000, reference.count)
        let lags = ((estimate - 400)...(estimate + 400)).filter { $0 >= 0 && $0 + window <= recording.count }
        let mean = reference[0..<window].reduce(0.0) { $0 + Double($1) } / Double(window)
        let centred = reference[0..<window].map { Double($0) - mean }
        let squares = centred.reduce(0.0) { $0 + $1 * $1 }
        return centred.withUnsafeBufferPointer { centred in
            recording.withUnsafeBufferPointer { recording in
                var best: (lag: Int, score: Double)?
                for lag in lags {
                    var (sum, recordedSquares, cross) = (0.0, 0.0, 0.0)
                    for index in 0..<window {
                        let sample = Double(recording[lag + index])
                        sum += sample
                        recordedSquares += sample * sample
                        cross += centred[index] * sample
                    }
                    let spread = recordedSquares - sum * sum / Double(window)
                    let score = squares > 0 && spread > 0 ? cross / (squares * spread).squareRoot() : 0
                    if best.map({ score > $0.score }) ?? true { best = (lag, score) }
                }
                return best?.lag
            }
        }
    }

    /// Amplitude of the `frequency` component of `samples` (16 kHz), by least squares.
    static func amplitude(of frequency: Double, in samples: ArraySlice<Float>) -> Double {
        var (sinSum, cosSum, sinSquares, cosSquares, cross) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for (offset, sample) in samples.enumerated() {
            let angle = 2 * Double.pi * frequency * Double(offset) / Double(AudioFrame.sampleRate)
            let (s, c) = (sin(angle), cos(angle))
            sinSum += Double(sample) * s
            cosSum += Double(sample) * c
            sinSquares += s * s
            cosSquares += c * c
            cross += s * c
        }
        let determinant = sinSquares * cosSquares - cross * cross
        guard determinant > 0 else { return 0 }
        let a = (sinSum * cosSquares - cosSum * cross) / determinant
        let b = (cosSum * sinSquares - sinSum * cross) / determinant
        return (a * a + b * b).squareRoot()
    }

    static func sine(frequency: Double, seconds: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(seconds * Double(AudioFrame.sampleRate))).map { index in
            amplitude * Float(sin(2 * Double.pi * frequency * Double(index) / Double(AudioFrame.sampleRate)))
        }
    }
}
