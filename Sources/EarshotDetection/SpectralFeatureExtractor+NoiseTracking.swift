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
