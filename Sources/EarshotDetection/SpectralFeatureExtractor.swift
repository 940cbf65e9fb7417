import Foundation
import EarshotAudio

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
        for i in 0..<hop { b.history[keep + i] = frame.samples[i] }
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
