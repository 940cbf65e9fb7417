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

        private var spectrum: SlidingSpectrum

        init() {
            let size = Self.size
            let hann = SlidingSpectrum.hann(size: size)
            let meanSquare = hann.reduce(0) { $0 + $1 * $1 } / Float(size)
            // Scaled so that windowed white noise keeps its mean-square power.
            spectrum = SlidingSpectrum(window: hann.map { $0 / meanSquare.squareRoot() })
        }

        /// Mean-square power of each band; the four add up to the power of the windowed span.
        mutating func bandPowers(of samples: borrowing [160 of Float]) -> [4 of Float] {
            let size = Self.size
            spectrum.append(samples)
            // Parseval: Σx² = (|X₀|² + 2Σ|Xₖ|² + |X_N/2|²) / N, and the mean divides by N again.
            let scale = 1 / Float(size * size)
            var powers: [4 of Float] = .init(repeating: 0)
            spectrum.withBins { real, imaginary in
                for band in 0..<4 {
                    var sum: Float = 0
                    for bin in Self.bandStartBins[band]..<Self.bandStartBins[band + 1] {
                        let weight: Float = bin == 0 || bin == size / 2 ? 1 : 2
                        sum += weight * (real[bin] * real[bin] + imaginary[bin] * imaginary[bin])
                    }
                    powers[band] = sum * scale
                }
            }
            return powers
        }

        mutating func reset() {
            spectrum.reset()
        }
    }
}
