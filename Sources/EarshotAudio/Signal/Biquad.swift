#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A second-order IIR filter section (direct form I), for smoothing feature tracks.
struct Biquad: Sendable, Equatable {
    /// The filter's memory: last two inputs and outputs.
    struct State: Sendable, Equatable {
        var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0

        /// The state of a filter that has seen `value` forever (for a band-pass, zero output).
        static func settled(at value: Float) -> State { State(x1: value, x2: value, y1: 0, y2: 0) }
    }

    var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float

    /// RBJ cookbook band-pass with 0 dB peak gain.
    static func bandPass(centreHz: Double, q: Double, sampleRateHz: Double) -> Biquad {
        let w0 = 2 * Double.pi * centreHz / sampleRateHz
        let alpha = sin(w0) / (2 * q)
        let a0 = 1 + alpha
        return Biquad(
            b0: Float(alpha / a0), b1: 0, b2: Float(-alpha / a0),
            a1: Float(-2 * cos(w0) / a0), a2: Float((1 - alpha) / a0)
        )
    }

    func process(_ x: Float, state: inout State) -> Float {
        let y = b0 * x + b1 * state.x1 + b2 * state.x2 - a1 * state.y1 - a2 * state.y2
        state = State(x1: x, x2: state.x1, y1: y, y2: state.y1)
        return y
    }
}
