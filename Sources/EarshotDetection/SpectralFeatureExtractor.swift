import Foundation
import EarshotAudio

/// Turns a stream of 10 ms frames into `SpectralFeatures`, one per frame, each measured on the
/// 32 ms window that ends with that frame.
///
/// Per band it tracks the noise the MCRA way: a running minimum of the smoothed power tells
/// whether speech is present, and the noise estimate is averaged only while it is not.
struct SpectralFeatureExtractor: Sendable {
    struct Tuning: Sendable, Equatable {
        /// Noise power never drops below this (dBFS per sample), so digital silence has a floor.
        var noiseFloorDB: Float = -75
        /// How fast the running minimum may rise, in dB per second.
        var minimumRiseDBPerSecond: Float = 5
        /// Smoothed power above this many times the minimum counts as speech presence (MCRA δ).
        var presenceRatio: Float = 5
        /// Weight of the previous frame in the decision-directed a-priori SNR.
        var decisionDirectedWeight: Float = 0.9
    }

    static let bandCount = 20
    private static let windowLength = SpectralAnalysisBuffers.windowLength
    private static let binCount = SpectralAnalysisBuffers.binCount

    let tuning: Tuning
    private let fft: RealFFT
    /// Band j covers bins bandStart[j]..<bandEnd[j]; mel-spaced from 62.5 Hz to 8 kHz.
    private let bandStart: [Int]
    private let bandEnd: [Int]
    private let bandCentre: [Float]
    private var buffers: SpectralAnalysisBuffers
    private var framesSeen = 0
    private var modulationState = Biquad.State()
    private var modulationPower: Float = 0
    private let modulationFilter: Biquad
    private let powerScale: Float
    private let noiseFloor: Float
    private let minimumRise: Float

    init(tuning: Tuning = .init()) {
        self.tuning = tuning
        fft = RealFFT(size: Self.windowLength)
        buffers = SpectralAnalysisBuffers(bandCount: Self.bandCount)
        var windowEnergy: Float = 0
        for i in 0..<Self.windowLength {
            let w = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(Self.windowLength)))
            buffers.window[i] = w
            windowEnergy += w * w
        }
        // Scaled so that white noise of variance σ² has a mean bin power of σ².
        powerScale = 1 / windowEnergy
        let edges = Self.melEdges(count: Self.bandCount, lowHz: 62.5, highHz: 8000)
        bandStart = Array(edges.dropLast())
        bandEnd = Array(edges.dropFirst())
        bandCentre = (0..<Self.bandCount).map { Float(edges[$0] + edges[$0 + 1] - 1) * 0.5 * 31.25 }
        modulationFilter = Biquad.bandPass(centreHz: 4, q: 0.7, sampleRateHz: 100)
        noiseFloor = Float(pow(10, Double(tuning.noiseFloorDB) / 10))
        minimumRise = Float(pow(10, Double(tuning.minimumRiseDBPerSecond) / 10 / 100))
    }

    /// Bin edges of `count` bands equally spaced on the mel scale, each at least one bin wide.
    private static func melEdges(count: Int, lowHz: Double, highHz: Double) -> [Int] {
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let binHz = 16_000.0 / Double(windowLength)
        var edges: [Int] = []
        for i in 0...count {
            let f = hz(mel(lowHz) + (mel(highHz) - mel(lowHz)) * Double(i) / Double(count))
            var bin = Int((f / binHz).rounded())
            if let last = edges.last, bin <= last { bin = last + 1 }
            edges.append(min(bin, binCount - 1))
        }
        return edges
    }

    mutating func reset() {
        if !isKnownUniquelyReferenced(&buffers) { buffers = buffers.copy() }
        let b = buffers
        b.history.update(repeating: 0, count: Self.windowLength)
        for region in [b.bandPower, b.smoothedPower, b.minimumPower, b.noisePower, b.presence,
                       b.previousSpeechEstimate, b.previousLogPower] {
            region.update(repeating: 0, count: Self.bandCount)
        }
        framesSeen = 0
        modulationState = .init()
        modulationPower = 0
    }

    /// Appends `frame` to the window and measures the window.
    mutating func analyze(_ frame: borrowing AudioFrame) -> SpectralFeatures {
        if !isKnownUniquelyReferenced(&buffers) { buffers = buffers.copy() }
        let b = buffers
        let hop = AudioFrame.sampleCount
        let keep = Self.windowLength - hop
        b.history.update(from: b.history + hop, count: keep)
        for i in 0..<hop { b.history[keep + i] = frame.samples[i] }
        computePowerSpectrum()
        computeBandPowers()
        let first = framesSeen == 0
        framesSeen += 1
        trackNoise(first: first)

        var features = SpectralFeatures()
        features.likelihood = likelihoodRatio()
        features.snr = bandSNR(fromHz: 200, toHz: 4000)
        features.lowBandSNR = bandSNR(fromHz: 0, toHz: 1000)
        features.highBandSNR = bandSNR(fromHz: 2000, toHz: 8000)
        features.harmonicity = harmonicity()
        (features.flatness, features.flux) = shapeAndFlux(first: first)
        features.modulation = modulation(first: first)
        return features
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
            for k in bandStart[j]..<bandEnd[j] { sum += b.power[k] }
            b.bandPower[j] = sum / Float(bandEnd[j] - bandStart[j])
        }
    }

    private func trackNoise(first: Bool) {
        let b = buffers
        for j in 0..<Self.bandCount {
            let power = max(b.bandPower[j], noiseFloor)
            if first {
                b.smoothedPower[j] = power
                b.minimumPower[j] = power
                b.noisePower[j] = power
                continue
            }
            let smoothed = 0.7 * b.smoothedPower[j] + 0.3 * power
            b.smoothedPower[j] = smoothed
            b.minimumPower[j] = min(smoothed, b.minimumPower[j] * minimumRise)
            let present: Float = smoothed > tuning.presenceRatio * b.minimumPower[j] ? 1 : 0
            b.presence[j] = 0.8 * b.presence[j] + 0.2 * present
            let alpha = 0.95 + 0.05 * b.presence[j]
            b.noisePower[j] = max(alpha * b.noisePower[j] + (1 - alpha) * power, noiseFloor)
        }
        // Bins take the noise of their band; bins outside every band borrow the nearest band's.
        for k in 0..<Self.binCount { b.binNoise[k] = b.noisePower[0] }
        for j in 0..<Self.bandCount {
            for k in bandStart[j]..<bandEnd[j] { b.binNoise[k] = b.noisePower[j] }
        }
        b.binNoise[Self.binCount - 1] = b.noisePower[Self.bandCount - 1]
    }

    /// Sohn, Kim & Sung (1999): mean over bands of log Λ = γξ/(1+ξ) − ln(1+ξ), with the
    /// decision-directed a-priori SNR ξ.
    private func likelihoodRatio() -> Float {
        let b = buffers
        let weight = tuning.decisionDirectedWeight
        var total: Float = 0
        for j in 0..<Self.bandCount {
            let gamma = min(b.bandPower[j] / b.noisePower[j], 1000)
            let xi = max(weight * b.previousSpeechEstimate[j] + (1 - weight) * max(gamma - 1, 0), 0.003)
            let gain = xi / (1 + xi)
            b.previousSpeechEstimate[j] = gain * gain * gamma
            total += gamma * gain - log(1 + xi)
        }
        return log(1 + max(total / Float(Self.bandCount), 0))
    }

    private func bandSNR(fromHz low: Float, toHz high: Float) -> Float {
        let b = buffers
        var signal: Float = 0, noise: Float = 0
        for j in 0..<Self.bandCount where bandCentre[j] >= low && bandCentre[j] < high {
            let width = Float(bandEnd[j] - bandStart[j])
            signal += b.bandPower[j] * width
            noise += b.noisePower[j] * width
        }
        guard noise > 0 else { return 0 }
        return min(max(10 * log10(max(signal, 1e-20) / noise), -10), 40)
    }

    /// Autocorrelation of the noise-subtracted magnitude spectrum below 4 kHz (a compressed,
    /// "generalised" autocorrelation), read at lags of 40...256 samples (62–400 Hz pitch).
    private func harmonicity() -> Float {
        let b = buffers
        let n = Self.windowLength, top = 128
        var zeroLag: Float = 0
        for k in 0...(n / 2) {
            var value: Float = 0
            if k >= 2 && k <= top {
                let excess = b.power[k] - 2 * b.binNoise[k]
                if excess > 0 { value = excess.squareRoot() }
            }
            b.scratch[k] = value
            if k > 0 && k < n / 2 { b.scratch[n - k] = value }
            zeroLag += k == 0 || k == n / 2 ? value : 2 * value
        }
        guard zeroLag > 0 else { return 0 }
        fft.forward(
            UnsafeBufferPointer(start: b.scratch, count: n),
            real: UnsafeMutableBufferPointer(start: b.real, count: Self.binCount),
            imaginary: UnsafeMutableBufferPointer(start: b.imaginary, count: Self.binCount)
        )
        var peak: Float = 0
        for lag in 40...(n / 2) where b.real[lag] > peak { peak = b.real[lag] }
        return min(peak / zeroLag, 1)
    }

    private func shapeAndFlux(first: Bool) -> (flatness: Float, flux: Float) {
        let b = buffers
        var logSum: Float = 0, sum: Float = 0, change: Float = 0
        for j in 0..<Self.bandCount {
            let power = max(b.bandPower[j], noiseFloor)
            let logPower = 10 * log10(power)
            logSum += logPower
            sum += power
            if !first { change += abs(logPower - b.previousLogPower[j]) }
            b.previousLogPower[j] = logPower
        }
        let count = Float(Self.bandCount)
        let flatness = logSum / count - 10 * log10(sum / count)
        return (min(max(flatness, -30), 0), min(change / count, 30))
    }

    /// Band-passes the speech-band log energy around 4 Hz and returns its running RMS.
    private mutating func modulation(first: Bool) -> Float {
        let b = buffers
        var energy: Float = 0
        for j in 0..<Self.bandCount where bandCentre[j] >= 200 && bandCentre[j] < 4000 {
            energy += max(b.bandPower[j], noiseFloor)
        }
        let level = 10 * log10(energy)
        if first { modulationState = .settled(at: level) }
        let filtered = modulationFilter.process(level, state: &modulationState)
        modulationPower = 0.97 * modulationPower + 0.03 * filtered * filtered
        return min(modulationPower.squareRoot(), 40)
    }
}
