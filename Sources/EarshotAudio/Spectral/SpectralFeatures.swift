#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

/// How `SpectralFeatureExtractor` groups FFT bins into bands: equally spaced on the mel scale
/// from 62.5 Hz to 8 kHz, each at least one bin wide.
struct SpectralBandLayout: Sendable {
    /// Band j covers bins start[j]..<end[j].
    let start: [Int]
    let end: [Int]
    let width: [Float]
    /// Centre frequency of each band, Hz.
    let centre: [Float]
    /// The band each bin takes its noise estimate from (bins below the first band use the first).
    let bandOfBin: [Int]
    /// Bands centred in 200–4000 Hz, where speech carries most of its energy.
    let speechBands: [Int]
    /// Bands grouped into 60–500, 500–1500, 1500–3500 and 3500–8000 Hz, for sub-band modulation.
    let subbands: [[Int]]

    init(bandCount: Int, binCount: Int, sampleRate: Double) {
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let binHz = sampleRate / Double(2 * (binCount - 1))
        var edges: [Int] = []
        for i in 0...bandCount {
            let f = hz(mel(62.5) + (mel(8000) - mel(62.5)) * Double(i) / Double(bandCount))
            var bin = Int((f / binHz).rounded())
            if let last = edges.last, bin <= last { bin = last + 1 }
            edges.append(min(bin, binCount - 1))
        }
        start = Array(edges.dropLast())
        end = Array(edges.dropFirst())
        width = (0..<bandCount).map { Float(edges[$0 + 1] - edges[$0]) }
        let centre = (0..<bandCount).map { Float(Double(edges[$0] + edges[$0 + 1] - 1) * 0.5 * binHz) }
        self.centre = centre
        var bandOfBin = [Int](repeating: 0, count: binCount)
        for j in 0..<bandCount {
            for k in edges[j]..<edges[j + 1] { bandOfBin[k] = j }
        }
        for k in edges[bandCount]..<binCount { bandOfBin[k] = bandCount - 1 }
        self.bandOfBin = bandOfBin
        func bands(from low: Float, to high: Float) -> [Int] {
            (0..<bandCount).filter { centre[$0] >= low && centre[$0] < high }
        }
        speechBands = bands(from: 200, to: 4000)
        subbands = [bands(from: 60, to: 500), bands(from: 500, to: 1500), bands(from: 1500, to: 3500), bands(from: 3500, to: 8000)]
    }
}
