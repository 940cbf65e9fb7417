import Foundation

extension SpectralFeatureExtractor {
    /// SNR in dB over the speech bands, each band weighted by its width, clipped to -10...40.
    func weightedSNR(against noise: UnsafeMutablePointer<Float>) -> Float {
        let b = buffers
        var signal: Float = 0, noiseSum: Float = 0
        for j in layout.speechBands {
            signal += b.bandPower[j] * layout.width[j]
            noiseSum += noise[j] * layout.width[j]
        }
        return Self.clip(10 * log10(max(signal, 1e-20) / noiseSum), -10, 40)
    }

    /// `weightedSNR` against the median noise level.
    func medianNoiseSNR() -> Float {
        let b = buffers
        var signal: Float = 0, noiseSum: Float = 0
        for j in layout.speechBands {
            signal += b.bandPower[j] * layout.width[j]
            noiseSum += Self.power(fromDB: b.medianLevel[j]) * layout.width[j]
        }
        return Self.clip(10 * log10(max(signal, 1e-20) / noiseSum), -10, 40)
    }

    /// Sohn, Kim & Sung (1999): log(1 + mean over bands of log Λ = γξ/(1+ξ) − ln(1+ξ)), with the
    /// decision-directed a-priori SNR ξ.
    func likelihoodRatio() -> Float {
        let b = buffers
        let weight = tuning.decisionDirectedWeight
        var total: Float = 0
        for j in 0..<Self.bandCount {
            let gamma = min(b.bandPower[j] / b.noise[j], 1000)
            let xi = max(weight * b.previousSpeechEstimate[j] + (1 - weight) * max(gamma - 1, 0), 0.003)
            let gain = xi / (1 + xi)
            b.previousSpeechEstimate[j] = gain * gain * gamma
            total += gamma * gain - log(1 + xi)
        }
        return log1p(max(total / Float(Self.bandCount), 0))
    }

    /// Highest band SNR, spread of the band SNRs, and spectral flux (mean absolute change of the
    /// band levels), all in dB.
    func bandSNRStatistics() -> (maximum: Float, spread: Float, flux: Float) {
        let b = buffers
        var maximum = -Float.infinity, sum: Float = 0, squares: Float = 0, change: Float = 0
        for j in 0..<Self.bandCount {
            let snr = b.bandLevel[j] - 10 * log10(b.noise[j])
            maximum = max(maximum, snr)
            sum += snr
            squares += snr * snr
            change += abs(b.bandLevel[j] - b.previousLevel[j])
            b.previousLevel[j] = b.bandLevel[j]
        }
        let count = Float(Self.bandCount)
        let mean = sum / count
        let spread = max(squares / count - mean * mean, 0).squareRoot()
        return (Self.clip(maximum, -10, 40), Self.clip(spread, 0, 30), change / count)
    }

    /// Highest band level above that band's 20th-percentile level, dB, clipped to -10...40.
    func maxBandLowQuantileSNR() -> Float {
        let b = buffers
        var maximum = -Float.infinity
        for j in 0..<Self.bandCount { maximum = max(maximum, b.bandLevel[j] - b.lowQuantileLevel[j]) }
        return Self.clip(maximum, -10, 40)
    }

    /// Peak normalised autocorrelation at lags of 40...256 samples (62–400 Hz pitch) of the
    /// noise-whitened magnitude spectrum below 4 kHz. Whitening by the noise estimate keeps
    /// stationary tonal noise (hum) and coloured noise from looking periodic.
    func harmonicity() -> Float {
        let b = buffers
        let n = Self.windowLength, low = 2, high = 128
        var sum: Float = 0
        for k in low...high {
            let noise = max(b.noise[layout.bandOfBin[k]], noiseFloor)
            let value = (b.power[k] / noise).squareRoot()
            b.scratch[k] = value
            sum += value
        }
        guard sum > 0 else { return 0 }
        let mean = sum / Float(high - low + 1)
        // An even sequence, so its FFT is real: Σ_k W_k cos(2πkl/n), counted twice.
        b.scratch.update(repeating: 0, count: low)
        (b.scratch + high + 1).update(repeating: 0, count: n - high - 1)
        for k in low...high {
            let centred = b.scratch[k] - mean
            b.scratch[k] = centred
            b.scratch[n - k] = centred
        }
        fft.forward(
            UnsafeBufferPointer(start: b.scratch, count: n),
            real: UnsafeMutableBufferPointer(start: b.real, count: Self.binCount),
            imaginary: UnsafeMutableBufferPointer(start: b.imaginary, count: Self.binCount)
        )
        var peak = -Float.infinity
        for lag in 40...(n / 2) { peak = max(peak, b.real[lag]) }
        return Self.clip(0.5 * peak / sum, 0, 1)
    }

    /// Boersma (1993): the autocorrelation of the windowed signal divided by the window's own,
    /// normalised, at its highest peak among lags of 40...213 samples (400–75 Hz). It is taken
    /// from the power spectrum below 1.5 kHz with each band's tracked noise subtracted, so steady
    /// noise does not look periodic and the fundamental, not the formants, sets the period.
    func periodicity() -> (strength: Float, pitchHz: Float) {
        let b = buffers
        let n = Self.windowLength, top = 48
        b.scratch.update(repeating: 0, count: n)
        for k in 1...top {
            let clean = max(b.power[k] - b.noise[layout.bandOfBin[k]], 0)
            b.scratch[k] = clean
            b.scratch[n - k] = clean
        }
        fft.forward(
            UnsafeBufferPointer(start: b.scratch, count: n),
            real: UnsafeMutableBufferPointer(start: b.real, count: Self.binCount),
            imaginary: UnsafeMutableBufferPointer(start: b.imaginary, count: Self.binCount)
        )
        let energy = b.real[0]
        guard energy > 0 else { return (0, 0) }
        let low = 40, high = 213
        var highest: Float = 0
        for lag in (low - 1)...high {
            let value = b.real[lag] / energy / b.windowCorrelation[lag]
            b.scratch[lag] = value
            if lag >= low { highest = max(highest, value) }
        }
        guard highest > 0 else { return (0, 0) }
        // A periodic sound correlates as well at twice its period: the shortest lag whose peak
        // comes close to the highest one is the period.
        var period = low
        for lag in low..<high where b.scratch[lag] >= Self.periodPeakShare * highest {
            if b.scratch[lag] >= b.scratch[lag - 1], b.scratch[lag] >= b.scratch[lag + 1] {
                period = lag
                break
            }
        }
        let left = b.scratch[period - 1], peak = b.scratch[period], right = b.scratch[period + 1]
        // A parabola through the peak and its neighbours places the period between samples.
        var refined = Float(period)
        let curvature = left - 2 * peak + right
        if curvature < 0 { refined += Self.clip(0.5 * (left - right) / curvature, -0.5, 0.5) }
        return (Self.clip(peak, 0, 1), 16_000 / refined)
    }

    private static let periodPeakShare: Float = 0.8

    static func clip(_ value: Float, _ low: Float, _ high: Float) -> Float { min(max(value, low), high) }

    static func power(fromDB level: Float) -> Float { exp(level * (Float(M_LN10) / 10)) }
}
