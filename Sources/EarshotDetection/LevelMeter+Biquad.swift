import EarshotAudio
import Foundation

extension LevelMeter {
    /// A second-order IIR section (RBJ cookbook coefficients, transposed direct form II).
    struct Biquad: Sendable {
        private var b0: Float
        private var b1: Float
        private var b2: Float
        private var a1: Float
        private var a2: Float
        private var z1: Float = 0
        private var z2: Float = 0

        static func lowPass(cutoffHertz: Double, q: Double) -> Biquad {
            let (cosine, alpha) = warped(cutoffHertz: cutoffHertz, q: q)
            return Biquad(
                b0: (1 - cosine) / 2, b1: 1 - cosine, b2: (1 - cosine) / 2,
                a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        }

        static func highPass(cutoffHertz: Double, q: Double) -> Biquad {
            let (cosine, alpha) = warped(cutoffHertz: cutoffHertz, q: q)
            return Biquad(
                b0: (1 + cosine) / 2, b1: -(1 + cosine), b2: (1 + cosine) / 2,
                a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        }

        private init(b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double) {
            self.b0 = Float(b0 / a0)
            self.b1 = Float(b1 / a0)
            self.b2 = Float(b2 / a0)
            self.a1 = Float(a1 / a0)
            self.a2 = Float(a2 / a0)
        }

        private static func warped(cutoffHertz: Double, q: Double) -> (cosine: Double, alpha: Double) {
            let omega = 2 * Double.pi * cutoffHertz / Double(AudioFrame.sampleRate)
            return (cos(omega), sin(omega) / (2 * q))
        }

        mutating func process(_ x: Float) -> Float {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }

        /// Zeroes a state that has decayed to denormal size (slow on most CPUs) or was
        /// poisoned by a non-finite input.
        mutating func sanitizeState() {
            let tiny: Float = 1e-20
            if !(abs(z1) >= tiny) || !z1.isFinite { z1 = 0 }
            if !(abs(z2) >= tiny) || !z2.isFinite { z2 = 0 }
        }
    }
}
