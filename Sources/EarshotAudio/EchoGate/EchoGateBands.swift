#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension EchoGate {
    /// Band powers of a 16 kHz stream, one set per 10 ms frame, measured on the 16 ms
    /// (256-sample) Hann window that ends with the frame.
    ///
    /// The bands cover 125 Hz–4 kHz, spaced evenly on the mel scale but at least two 62.5 Hz
    /// bins wide: below 125 Hz a small loudspeaker reproduces little, and above 4 kHz speech
    /// carries little of its energy, so neither helps to tell echo from the person.
    struct BandAnalyzer: Sendable {
        static let windowLength = 256
        static let lowestBin = 2
        static let highestBin = 64
        static let minimumBandWidth = 2

        let bandCount: Int
        /// The newest window's band powers, mean square per sample.
        private(set) var powers: [Float]
        /// Band j covers bins bandStart[j]..<bandStart[j + 1].
        private let bandStart: [Int]
        private var spectrum: SlidingSpectrum

        init(bandCount: Int) {
            let size = Self.windowLength
            let hann = SlidingSpectrum.hann(size: size)
            let energy = hann.reduce(0) { $0 + $1 * $1 }
            // Scaled so that a band's power is its share of the window's mean-square value.
            let scale = (1 / (energy * Float(size))).squareRoot()
            spectrum = SlidingSpectrum(window: hann.map { $0 * scale })
            bandStart = Self.bandEdges(bandCount: bandCount)
            self.bandCount = bandStart.count - 1
            powers = [Float](repeating: 0, count: bandStart.count - 1)
        }

        /// Mel-spaced edges from `lowestBin` to `highestBin`, widened where they would crowd.
        static func bandEdges(bandCount: Int) -> [Int] {
            func mel(_ bin: Double) -> Double { 2595 * log10(1 + bin * 62.5 / 700) }
            let low = mel(Double(lowestBin)), high = mel(Double(highestBin))
            var edges = [lowestBin]
            for i in 1...bandCount {
                let target = low + (high - low) * Double(i) / Double(bandCount)
                let bin = Int((700 * (pow(10, target / 2595) - 1) / 62.5).rounded())
                let next = max(bin, edges[edges.count - 1] + minimumBandWidth)
                guard next <= highestBin else { break }
                edges.append(next)
            }
            if edges[edges.count - 1] < highestBin { edges[edges.count - 1] = highestBin }
            return edges
        }

        /// Appends `frame` to the window and measures the window's band powers into `powers`.
        mutating func analyze(_ samples: borrowing [160 of Float]) {
            spectrum.append(samples)
            let bandCount = self.bandCount
            spectrum.withBins { real, imaginary in
                bandStart.withUnsafeBufferPointer { start in
                    powers.withUnsafeMutableBufferPointer { powers in
                        for band in 0..<bandCount {
                            var sum: Float = 0
                            for bin in start[band]..<start[band + 1] {
                                sum += real[bin] * real[bin] + imaginary[bin] * imaginary[bin]
                            }
                            // Corrupt input must not poison the trackers for the rest of the stream.
                            powers[band] = sum.isFinite ? 2 * sum : 0
                        }
                    }
                }
            }
        }

        mutating func reset() {
            spectrum.reset()
            for i in powers.indices { powers[i] = 0 }
        }
    }
}

extension EchoGate {
    /// The loudspeaker-to-microphone coupling per band, in dB, learnt from observations that
    /// are each an upper bound on it: the loudest microphone power in the span where a played
    /// frame's echo must arrive, over that frame's power. Their 10th percentile (tracked with
    /// fixed steps) is close above the true coupling, and stays put while the person speaks
    /// for a while, since the person only adds to the microphone.
    struct Coupling: Sendable {
        /// Steps of the percentile tracker, dB: the estimate falls 0.9 dB for each observation
        /// below it and rises 0.1 dB for each above, which balances at the 10th percentile.
        static let fall: Float = 0.9
        static let rise: Float = 0.1
        /// For a band's first observations both steps are this many times larger (the same
        /// percentile, reached sooner): the assumed coupling is the loudest plausible, and
        /// until it falls, a person talking over the first reply of a session is taken for its
        /// echo.
        static let warmUpSpeedUp: Float = 4
        static let warmUpObservations = 12
        static let range: ClosedRange<Float> = -80...12

        private(set) var decibels: [Float]
        /// Observations learnt from, per band (counted up to the end of the warm-up).
        private var observations: [Int]
        /// `decibels` as power ratios.
        private(set) var ratio: [Float]

        init(bandCount: Int, decibels: Float) {
            self.decibels = [Float](repeating: decibels, count: bandCount)
            observations = [Int](repeating: 0, count: bandCount)
            ratio = [Float](repeating: EchoGate.power(decibels: decibels), count: bandCount)
        }

        /// Learns from one played frame's band powers (`reference` from index `start`) and the
        /// loudest microphone band powers where its echo must be (`microphone`), in the bands
        /// the played frame drives: within 50 dB of its loudest band.
        mutating func learn(reference: [Float], at start: Int, microphone: [Float]) {
            var loudest: Float = 0
            for band in decibels.indices { loudest = max(loudest, reference[start + band]) }
            let threshold = max(loudest * 1e-5, 1e-9)
            for band in decibels.indices where reference[start + band] > threshold {
                let observed = DelayTracker.decibels(microphone[band]) - DelayTracker.decibels(reference[start + band])
                let current = decibels[band]
                let speed = observations[band] < Self.warmUpObservations ? Self.warmUpSpeedUp : 1
                observations[band] = min(observations[band] + 1, Self.warmUpObservations)
                let updated = observed < current ? max(current - speed * Self.fall, observed) : current + speed * Self.rise
                decibels[band] = min(max(updated, Self.range.lowerBound), Self.range.upperBound)
                ratio[band] = EchoGate.power(decibels: decibels[band])
            }
        }
    }
}
