import EarshotAudio

extension LevelMeter {
    /// Splits a frame into four bands (below 300 Hz, 300 Hz–1 kHz, 1–3 kHz, above 3 kHz) with
    /// 6th-order Butterworth edges and returns each band's mean-square power.
    ///
    /// Sixth order keeps a pure tone's leakage into the neighbouring bands about 30 dB down,
    /// which the band normalization needs; 18 biquads per sample is still far cheaper than an FFT.
    struct BandFilterBank: Sendable {
        /// Q of the three sections of a 6th-order Butterworth filter.
        private static let butterworthQ: [3 of Double] = [0.517_638_1, 0.707_106_8, 1.931_851_7]

        private var sections: [18 of Biquad]

        init() {
            let q = Self.butterworthQ
            sections = [
                .lowPass(cutoffHertz: 300, q: q[0]), .lowPass(cutoffHertz: 300, q: q[1]),
                .lowPass(cutoffHertz: 300, q: q[2]),
                .highPass(cutoffHertz: 300, q: q[0]), .highPass(cutoffHertz: 300, q: q[1]),
                .highPass(cutoffHertz: 300, q: q[2]),
                .lowPass(cutoffHertz: 1000, q: q[0]), .lowPass(cutoffHertz: 1000, q: q[1]),
                .lowPass(cutoffHertz: 1000, q: q[2]),
                .highPass(cutoffHertz: 1000, q: q[0]), .highPass(cutoffHertz: 1000, q: q[1]),
                .highPass(cutoffHertz: 1000, q: q[2]),
                .lowPass(cutoffHertz: 3000, q: q[0]), .lowPass(cutoffHertz: 3000, q: q[1]),
                .lowPass(cutoffHertz: 3000, q: q[2]),
                .highPass(cutoffHertz: 3000, q: q[0]), .highPass(cutoffHertz: 3000, q: q[1]),
                .highPass(cutoffHertz: 3000, q: q[2]),
            ]
        }

        /// Mean-square power of each band over the frame.
        mutating func bandPowers(of samples: borrowing [160 of Float]) -> [4 of Float] {
            var powers: [4 of Float] = .init(repeating: 0)
            for band in 0..<4 {
                let firstSection = band == 0 ? 0 : 6 * band - 3
                let sectionCount = band == 0 || band == 3 ? 3 : 6
                var sum: Float = 0
                for i in 0..<AudioFrame.sampleCount {
                    var y = samples[i]
                    for section in firstSection..<firstSection + sectionCount {
                        y = sections[section].process(y)
                    }
                    sum += y * y
                }
                powers[band] = sum / Float(AudioFrame.sampleCount)
            }
            for section in 0..<18 { sections[section].sanitizeState() }
            return powers
        }

        mutating func reset() {
            self = BandFilterBank()
        }
    }
}
