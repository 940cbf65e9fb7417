/// What `SpectralFeatureExtractor` measures on one 32 ms analysis window, all bounded.
///
/// SNRs are a-posteriori, in dB, against the tracked noise; "q50"/"q20" variants use the noise
/// estimated as the 50th/20th percentile of each band's recent log power instead.
struct SpectralFeatures: Sendable {
    enum Name: Int, CaseIterable, Sendable {
        /// SNR over 200–4000 Hz.
        case snr
        /// log(1 + mean Sohn log-likelihood ratio of speech vs noise over the bands).
        case likelihood
        /// Peak normalised autocorrelation (pitch lags 2.5–16 ms) of the noise-whitened spectrum.
        case harmonicity
        /// Highest `harmonicity` of the last 40 windows (400 ms): was voiced sound heard lately?
        /// Tells the pauses of an utterance from the tails of knocks, clicks and bursts.
        case recentHarmonicity
        /// Highest band SNR, and the spread (standard deviation) of the band SNRs.
        case maxBandSNR
        case bandSNRSpread
        /// Mean absolute change of the log band powers since the previous window, dB.
        case flux
        /// RMS of the 2–8 Hz band of the speech-band log energy (syllable rate), over ~330 ms and ~100 ms.
        case modulation
        case fastModulation
        /// The same for the SNR track.
        case snrModulation
        /// Mean over four sub-bands of their own 2–8 Hz log-energy modulation, over ~330 ms and ~100 ms.
        case subbandModulation
        case fastSubbandModulation
        /// SNR over 200–4000 Hz against the median noise estimate.
        case medianNoiseSNR
        /// Highest band SNR against the 20th-percentile noise estimate.
        case maxBandLowQuantileSNR
        /// Speech-band level relative to the slowly decaying loudest level heard (starting from a
        /// nominal speech level), dB, -30...0: quiet sounds far below the talker are unlikely speech.
        case levelBelowPeak
        /// That loudest level relative to the noise, dB, 0...50: a running estimate of the talker's SNR.
        case peakSNR
        /// Normalised autocorrelation at the pitch period (0...1): how periodic the sound below
        /// 1.5 kHz is once the tracked noise is taken out. Vowels and voiced consonants are near 1.
        case periodicity
        /// The pitch of that period, Hz (62.5–400), whether or not the window is voiced.
        case pitch
        /// Speech-band level (band powers summed), dB.
        case level
    }

    static let count = Name.allCases.count
    static var names: [String] { Name.allCases.map { "\($0)" } }

    var values: [20 of Float] = .init(repeating: 0)

    subscript(_ name: Name) -> Float {
        get { values[name.rawValue] }
        set { values[name.rawValue] = newValue }
    }

    /// The values in the order of `Name.allCases`.
    var array: [Float] { (0..<Self.count).map { values[$0] } }
}
