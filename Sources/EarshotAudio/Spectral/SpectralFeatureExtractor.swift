#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a stream of 10 ms frames into `SpectralFeatures`, one per frame, each measured on the
/// 32 ms window that ends with that frame.
///
/// Noise is tracked per band three ways: a running minimum gates a running mean (the mean moves
/// only while the band is within a few dB of its minimum), and two stochastic percentile trackers
/// follow the median and the 20th percentile of the band's log power.
struct SpectralFeatureExtractor: Sendable {
    struct Tuning: Sendable, Equatable {
        /// Band power never counts as lower than this (dBFS per sample), so that digital silence
        /// has a floor to measure SNR against.
        var noiseFloorDB: Float = -75
        /// How fast the running minimum may rise, in dB per second.
        var minimumRiseDBPerSecond: Float = 5
        /// A frame updates the noise mean while its band power is below this many times the minimum.
        var noiseUpdateRatio: Float = 3
        /// Weight of the old value in the noise mean once it has settled.
        var noiseSmoothing: Float = 0.9
        /// Loudest level assumed before any sound is heard, on the scale of the speech-band level
        /// (band powers summed), dB; about the peak of speech at -26 dBFS RMS.
        var nominalPeakLevelDB: Float = -5
        /// How fast the remembered loudest level decays, dB per frame, and how far below the
        /// nominal level it may decay (so that a long silence does not make every sound "loud").
        var peakDecayDBPerFrame: Float = 0.03
        var peakDecayRangeDB: Float = 20
        /// Weight of the previous frame in the decision-directed a-priori SNR.
        var decisionDirectedWeight: Float = 0.9
    }

    static let bandCount = 20
    /// Windows before the first full one (the 512-sample window spans 3.2 frames).
    static let warmUpFrames = 3
    static let windowLength = SpectralAnalysisBuffers.windowLength
    static let binCount = SpectralAnalysisBuffers.binCount

    let tuning: Tuning
    let fft: RealFFT
    let layout: SpectralBandLayout
    let noiseFloor: Float
    let minimumRise: Float
    var buffers: SpectralAnalysisBuffers
    private var framesSeen = 0
    private var modulation = ModulationTracker()
    private var peakLevel: Float
    /// The newest harmonicity values, slot `count % 40` next to be overwritten.
    private var harmonicityHistory: [40 of Float] = .init(repeating: 0)
    private var harmonicityCount = 0
    private let powerScale: Float

    init(tuning: Tuning = .init()) {
        self.tuning = tuning
        fft = RealFFT(size: Self.windowLength)
        layout = SpectralBandLayout(bandCount: Self.bandCount, binCount: Self.binCount, sampleRate: 16_000)
        buffers = SpectralAnalysisBuffers(bandCount: Self.bandCount)
        var windowEnergy: Float = 0
        for i in 0..<Self.windowLength {
            let w = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(Self.windowLength)))
            buffers.window[i] = w
            windowEnergy += w * w
        }
        // Scaled so that white noise of variance σ² has a mean bin power of σ².
        powerScale = 1 / windowEnergy
        for lag in 0..<Self.binCount {
            var sum: Float = 0
            for i in 0..<(Self.windowLength - lag) { sum += buffers.window[i] * buffers.window[i + lag] }
            buffers.windowCorrelation[lag] = sum / windowEnergy
        }
        noiseFloor = Float(pow(10, Double(tuning.noiseFloorDB) / 10))
        minimumRise = Float(pow(10, Double(tuning.minimumRiseDBPerSecond) / 10 / 100))
        peakLevel = tuning.nominalPeakLevelDB
    }

    mutating func reset() {
        if !isKnownUniquelyReferenced(&buffers) { buffers = buffers.copy() }
        buffers.clearState()
        framesSeen = 0
        modulation = ModulationTracker()
        peakLevel = tuning.nominalPeakLevelDB
        harmonicityHistory = .init(repeating: 0)
        harmonicityCount = 0
    }

    /// Appends `frame` to the window and measures the window; nil while the window is not yet
    /// full (the first `warmUpFrames` frames after a reset).
    mutating func analyze(_ frame: borrowing AudioFrame) -> SpectralFeatures? {
        if !isKnownUniquelyReferenced(&buffers) { buffers = buffers.copy() }
        let b = buffers
        let hop = AudioFrame.sampleCount
        let keep = Self.windowLength - hop
        b.history.update(from: b.history + hop, count: keep)
        // Through the span: indexing `frame.samples` copied the whole frame for every sample.
        frame.samples.span.withUnsafeBufferPointer { samples in
            (b.history + keep).update(from: samples.baseAddress!, count: hop)
        }
        framesSeen += 1
        guard framesSeen > Self.warmUpFrames else { return nil }
        let first = framesSeen == Self.warmUpFrames + 1

        computePowerSpectrum()
        computeBandPowers()
        if first { startTracking() }
        trackNoise()

        var features = SpectralFeatures()
        let snr = weightedSNR(against: b.noise)
        features[.snr] = snr
        features[.likelihood] = likelihoodRatio()
        let voicing = harmonicity()
        features[.harmonicity] = voicing
        let (strength, pitch) = periodicity()
        features[.periodicity] = strength
        features[.pitch] = pitch
        features[.recentHarmonicity] = recentMaximum(adding: voicing)
        let (maximum, spread, flux) = bandSNRStatistics()
        features[.maxBandSNR] = maximum
        features[.bandSNRSpread] = spread
        features[.flux] = flux
        features[.medianNoiseSNR] = medianNoiseSNR()
        features[.maxBandLowQuantileSNR] = maxBandLowQuantileSNR()

        let level = speechBandLevel()
        features[.level] = level
        var subbandLevels: [4 of Float] = .init(repeating: 0)
        for i in 0..<ModulationTracker.subbandCount { subbandLevels[i] = subbandLevel(i) }
        if first { modulation.start(level: level, snr: snr, subbandLevels: subbandLevels) }
        let reading = modulation.update(level: level, snr: snr, subbandLevels: subbandLevels)
        features[.modulation] = reading.level
        features[.fastModulation] = reading.fastLevel
        features[.snrModulation] = reading.snr
        features[.subbandModulation] = reading.subbands
        features[.fastSubbandModulation] = reading.fastSubbands

        let decayed = max(peakLevel - tuning.peakDecayDBPerFrame, tuning.nominalPeakLevelDB - tuning.peakDecayRangeDB)
        peakLevel = max(level, decayed)
        features[.levelBelowPeak] = min(max(level - peakLevel, -30), 0)
        features[.peakSNR] = min(max(peakLevel - speechBandNoiseLevel(), 0), 50)
        return features
    }

    private mutating func recentMaximum(adding voicing: Float) -> Float {
        harmonicityHistory[harmonicityCount % 40] = voicing
        harmonicityCount += 1
        var maximum: Float = 0
        for i in 0..<min(harmonicityCount, 40) { maximum = max(maximum, harmonicityHistory[i]) }
        return maximum
    }

    private func computePowerSpectrum() {
        let b = buffers
        for i in 0..<Self.windowLength { b.scratch[i] = b.history[i] * b.window[i] }
        fft.forward(
            UnsafeBufferPointer(start: b.scratch, count: Self.windowLength),
            real: UnsafeMutableBufferPointer(start: b.real, count: Self.binCount),
            imaginary: UnsafeMutableBufferPointer(start: b.imaginary, count: Self.binCount)
        )
        for k in 0..<Self.binCount {
            b.power[k] = (b.real[k] * b.real[k] + b.imaginary[k] * b.imaginary[k]) * powerScale
        }
    }

    private func computeBandPowers() {
        let b = buffers
        for j in 0..<Self.bandCount {
            var sum: Float = 0
            for k in layout.start[j]..<layout.end[j] { sum += b.power[k] }
            let power = max(sum / layout.width[j], noiseFloor)
            b.bandPower[j] = power
            b.bandLevel[j] = 10 * log10(power)
        }
    }

    /// Speech-band (200–4000 Hz) level: band powers summed, in dB.
    private func speechBandLevel() -> Float {
        var sum: Float = 0
        for j in layout.speechBands { sum += buffers.bandPower[j] }
        return 10 * log10(sum)
    }

    private func speechBandNoiseLevel() -> Float {
        var sum: Float = 0
        for j in layout.speechBands { sum += buffers.noise[j] }
        return 10 * log10(sum)
    }

    private func subbandLevel(_ index: Int) -> Float {
        var sum: Float = 0
        for j in layout.subbands[index] { sum += buffers.bandPower[j] }
        return 10 * log10(sum)
    }
}

extension SpectralFeatureExtractor {
    private static let powerSmoothing: Float = 0.7
    private static let medianStepDB: Float = 0.1
    private static let lowQuantile: Float = 0.2
    private static let lowQuantileStepDB: Float = 0.2

    /// Seeds every tracker with the first full window, as if it had always sounded like this.
    func startTracking() {
        let b = buffers
        for j in 0..<Self.bandCount {
            b.smoothedPower[j] = b.bandPower[j]
            b.minimumPower[j] = b.bandPower[j]
            b.noise[j] = b.bandPower[j]
            b.noiseUpdates[j] = 1
            b.medianLevel[j] = b.bandLevel[j]
            b.lowQuantileLevel[j] = b.bandLevel[j]
            b.previousLevel[j] = b.bandLevel[j]
            b.previousSpeechEstimate[j] = 0
        }
    }

    /// Updates the per-band noise estimates with the current window.
    func trackNoise() {
        let b = buffers
        let smoothing = tuning.noiseSmoothing
        for j in 0..<Self.bandCount {
            let power = b.bandPower[j]
            let smoothed = Self.powerSmoothing * b.smoothedPower[j] + (1 - Self.powerSmoothing) * power
            b.smoothedPower[j] = smoothed
            let minimum = min(smoothed, b.minimumPower[j] * minimumRise)
            b.minimumPower[j] = minimum
            var noise = b.noise[j]
            if power < tuning.noiseUpdateRatio * minimum {
                // A plain running mean until it has seen enough frames, then exponential.
                let count = b.noiseUpdates[j]
                let weight = max(smoothing, 1 - 1 / (count + 1))
                b.noiseUpdates[j] = count + 1
                noise = weight * noise + (1 - weight) * power
            }
            b.noise[j] = max(noise, minimum)

            // Stochastic percentile tracking: step up by q, down by 1 - q, settles where a
            // fraction q of the levels lie below.
            let level = b.bandLevel[j]
            b.medianLevel[j] += Self.medianStepDB * (0.5 - (level < b.medianLevel[j] ? 1 : 0))
            b.lowQuantileLevel[j] += Self.lowQuantileStepDB * (Self.lowQuantile - (level < b.lowQuantileLevel[j] ? 1 : 0))
        }
    }
}

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
