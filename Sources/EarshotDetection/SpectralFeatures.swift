/// What `SpectralFeatureExtractor` measures on one analysis window.
///
/// Every value is bounded, so a linear model over them cannot be thrown by one extreme input.
struct SpectralFeatures: Sendable, Equatable {
    /// log(1 + mean Sohn log-likelihood ratio of speech vs noise over the bands).
    var likelihood: Float = 0
    /// A-posteriori SNR in dB over 200–4000 Hz, clipped to -10...40.
    var snr: Float = 0
    /// A-posteriori SNR in dB below 1 kHz and above 2 kHz, clipped to -10...40.
    var lowBandSNR: Float = 0
    var highBandSNR: Float = 0
    /// Peak normalised autocorrelation of the noise-reduced spectrum at pitch lags (2.5–16 ms), 0...1.
    var harmonicity: Float = 0
    /// Spectral flatness of the band powers in dB (0 = flat, negative = peaky), clipped to -30...0.
    var flatness: Float = 0
    /// RMS of the 2–8 Hz band of the log-energy envelope in dB: syllabic modulation.
    var modulation: Float = 0
    /// Mean absolute change of the log band powers since the previous window, in dB.
    var flux: Float = 0

    static let names = [
        "likelihood", "snr", "lowBandSNR", "highBandSNR", "harmonicity", "flatness", "modulation", "flux",
    ]

    /// The values in the order of `names`.
    var values: [Float] { [likelihood, snr, lowBandSNR, highBandSNR, harmonicity, flatness, modulation, flux] }
}
