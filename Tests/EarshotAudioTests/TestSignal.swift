import Foundation

/// Synthetic signals and measurements for the audio tests.
enum TestSignal {
    static func sine(frequency: Double, sampleRate: Int, seconds: Double, amplitude: Double = 0.5, phase: Double = 0) -> [Float] {
        let count = Int(seconds * Double(sampleRate))
        return (0..<count).map { index in
            Float(amplitude * sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate) + phase))
        }
    }

    /// Deterministic pseudo-random samples in -1..<1.
    static func noise(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
    }

    /// Least-squares amplitude and phase of the `frequency` component of `samples[range]`,
    /// as in `amplitude * sin(2π f t + phase)` with `t` counted from sample 0.
    static func component(of samples: [Float], frequency: Double, sampleRate: Int, range: Range<Int>) -> (amplitude: Double, phase: Double) {
        var sinSum = 0.0, cosSum = 0.0, sinSquares = 0.0, cosSquares = 0.0, cross = 0.0
        for index in range {
            let angle = 2 * Double.pi * frequency * Double(index) / Double(sampleRate)
            let (s, c, x) = (sin(angle), cos(angle), Double(samples[index]))
            sinSum += x * s
            cosSum += x * c
            sinSquares += s * s
            cosSquares += c * c
            cross += s * c
        }
        // Solve the 2×2 normal equations for x ≈ a·sin + b·cos.
        let determinant = sinSquares * cosSquares - cross * cross
        let a = (sinSum * cosSquares - cosSum * cross) / determinant
        let b = (cosSum * sinSquares - sinSum * cross) / determinant
        return ((a * a + b * b).squareRoot(), atan2(b, a))
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
}
