import EarshotAudio
import Foundation

extension LevelMeter {
    /// Splits the signal into four bands (below 300 Hz, 300 Hz–1 kHz, 1–3 kHz, above 3 kHz) and
    /// returns each band's mean-square power over the latest 16 ms.
    ///
    /// A 256-point FFT of a Hann-windowed 16 ms span resolves 62.5 Hz bins, so a pure tone stays
    /// about 30 dB down outside its band, as the band normalization needs, at a few hundred
    /// operations per frame: far less than per-sample band filters of that steepness.
    struct BandFilterBank: Sendable {
        private static let size = 256
        /// First bin of each band, and the end of the last: 0, 300 Hz, 1 kHz, 3 kHz, Nyquist.
        private static let bandStartBins: [5 of Int] = [0, 5, 16, 48, 129]

        private let fft = RealFFT(size: BandFilterBank.size)
        /// Hann window scaled so that windowed white noise keeps its mean-square power.
        private let window: [Float]
        private var history: [Float]
        private var windowed: [Float]
        private var real: [Float]
        private var imaginary: [Float]

        init() {
            let size = Self.size
            let hann = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
            let meanSquare = hann.reduce(0) { $0 + $1 * $1 } / Float(size)
            window = hann.map { $0 / meanSquare.squareRoot() }
            history = [Float](repeating: 0, count: size)
            windowed = [Float](repeating: 0, count: size)
            real = [Float](repeating: 0, count: size / 2 + 1)
            imaginary = [Float](repeating: 0, count: size / 2 + 1)
        }

        /// Mean-square power of each band; the four add up to the power of the windowed span.
        mutating func bandPowers(of samples: borrowing [160 of Float]) -> [4 of Float] {
            let size = Self.size
            let kept = size - AudioFrame.sampleCount
            samples.span.withUnsafeBufferPointer { frame in
                history.withUnsafeMutableBufferPointer { history in
                    for i in 0..<kept { history[i] = history[i + AudioFrame.sampleCount] }
                    for i in 0..<AudioFrame.sampleCount { history[kept + i] = frame[i] }
                }
            }
            window.withUnsafeBufferPointer { window in
                history.withUnsafeBufferPointer { history in
                    windowed.withUnsafeMutableBufferPointer { windowed in
                        for i in 0..<size { windowed[i] = window[i] * history[i] }
                    }
                }
            }
            windowed.withUnsafeBufferPointer { input in
                real.withUnsafeMutableBufferPointer { real in
                    imaginary.withUnsafeMutableBufferPointer { imaginary in
                        fft.forward(input, real: real, imaginary: imaginary)
                    }
                }
            }
            // Parseval: Σx² = (|X₀|² + 2Σ|Xₖ|² + |X_N/2|²) / N, and the mean divides by N again.
            let scale = 1 / Float(size * size)
            var powers: [4 of Float] = .init(repeating: 0)
            real.withUnsafeBufferPointer { real in
                imaginary.withUnsafeBufferPointer { imaginary in
                    for band in 0..<4 {
                        var sum: Float = 0
                        for bin in Self.bandStartBins[band]..<Self.bandStartBins[band + 1] {
                            let weight: Float = bin == 0 || bin == size / 2 ? 1 : 2
                            sum += weight * (real[bin] * real[bin] + imaginary[bin] * imaginary[bin])
                        }
                        powers[band] = sum * scale
                    }
                }
            }
            return powers
        }

        mutating func reset() {
            for i in history.indices { history[i] = 0 }
        }
    }
}
