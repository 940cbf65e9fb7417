#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Polyphase table of a Kaiser-windowed sinc low-pass filter, one row of taps per fractional input position.
///
/// The filter is designed once per rate pair: its stopband starts at the lower of the two Nyquist
/// frequencies (so nothing above the output's Nyquist aliases back, and no image survives upsampling),
/// its passband ends 14 % below it, and it attenuates the stopband by at least 80 dB.
struct ResamplingKernel: Sendable {
    static let stopbandAttenuation = 80.0
    /// Width of the transition band as a fraction of the lower Nyquist frequency.
    static let transitionFraction = 0.14
    /// More phases than this would only buy sub-nanosecond timing; positions are rounded to the nearest phase instead.
    static let maximumPhaseCount = 1024
    static let tapMultiple = 8

    /// Rows of taps; row `p` serves outputs that fall `p / phaseCount` of an input sample after an input sample.
    let phaseCount: Int
    /// Taps per row, a multiple of `tapMultiple` so rows can be read in whole SIMD vectors.
    let tapCount: Int
    /// Input samples after the output position that the last tap reaches.
    let lookahead: Int
    /// `phaseCount` rows of `tapCount` taps; tap `i` multiplies input sample `position + lookahead - tapCount + 1 + i`.
    let coefficients: [Float]

    init(inputRate: Int, outputRate: Int, phaseCount: Int) {
        let lowerNyquist = Double(min(inputRate, outputRate)) / 2
        let transition = Self.transitionFraction * lowerNyquist / Double(inputRate)
        let cutoff = (1 - Self.transitionFraction / 2) * lowerNyquist / Double(inputRate)
        // Kaiser's estimates of the filter length and window shape for the wanted attenuation.
        let length = (Self.stopbandAttenuation - 7.95) / (14.36 * transition)
        let halfWidth = length / 2
        let beta = 0.1102 * (Self.stopbandAttenuation - 8.7)
        let lookahead = Int(halfWidth.rounded(.up)) + 1
        let tapCount = (2 * lookahead + Self.tapMultiple - 1) / Self.tapMultiple * Self.tapMultiple

        var coefficients = [Float](repeating: 0, count: phaseCount * tapCount)
        let windowNorm = 1 / Self.besselI0(beta)
        var row = [Double](repeating: 0, count: tapCount)
        for phase in 0..<phaseCount {
            let fraction = Double(phase) / Double(phaseCount)
            for tap in 0..<tapCount {
                // Distance in input samples from the output position back to the input sample this tap reads.
                let distance = fraction + Double(tapCount - lookahead - 1 - tap)
                let relative = distance / halfWidth
                guard abs(relative) < 1 else { row[tap] = 0; continue }
                let window = Self.besselI0(beta * (1 - relative * relative).squareRoot()) * windowNorm
                let sinc = distance == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * distance) / (Double.pi * distance)
                row[tap] = sinc * window
            }
            // Every row gets unit DC gain, so a constant stays constant whatever the output's fractional position.
            let gain = 1 / row.reduce(0, +)
            for tap in 0..<tapCount {
                coefficients[phase * tapCount + tap] = Float(row[tap] * gain)
            }
        }
        self.phaseCount = phaseCount
        self.tapCount = tapCount
        self.lookahead = lookahead
        self.coefficients = coefficients
    }

    /// Zeroth-order modified Bessel function of the first kind, by its power series.
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        let quarterSquare = x * x / 4
        var k = 1.0
        while term > sum * 1e-17 {
            term *= quarterSquare / (k * k)
            sum += term
            k += 1
        }
        return sum
    }
}
